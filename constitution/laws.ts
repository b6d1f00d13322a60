// The laws the vaglio enforces, in the words the judges and the audit log use. Plain data:
// the guard encodes what can be decided mechanically; the judges weigh the rest against these.

/** One law: a short name and the one-line reason it exists. */
export interface Law {
  readonly id: number;
  readonly name: string;
  readonly why: string;
}

/** The constitution. Not configurable at run time, by design. */
export const LAWS: readonly Law[] = [
  {
    id: 1,
    name: 'no irrecoverable state',
    why: 'a deleted disk, home or system tree cannot be asked back; an assistant must never be the cause',
  },
  {
    id: 2,
    name: 'no secrets leave the machine',
    why: "keys, passwords and tokens are the person's identity; once sent they are someone else's",
  },
  {
    id: 3,
    name: 'no acting beyond the request',
    why: 'the person asked for one thing; doing more spends trust they did not give',
  },
  {
    id: 4,
    name: 'no running what was not read',
    why: 'downloaded or decoded text piped into a shell runs code nobody saw',
  },
  {
    id: 5,
    name: 'no taking the machine away',
    why: "fork bombs, killing init or changing the system's own files leave the person without a working computer",
  },
];
