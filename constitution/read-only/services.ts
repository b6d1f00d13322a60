// Read-only queries of service managers, containers, clusters and disks.
import { refusing, sub, type ReadOnlyRuleSpec } from './spec.ts';

// -H/--host points the client at another daemon (ssh://host runs ssh); --config picks another
// client configuration, with its credential helpers.
const DOCKER_FORBIDDEN = ['-H', '--host', '--config'];

// kubectl options that only choose and shape what is printed. Left out on purpose: --kubeconfig
// and the credential options (a kubeconfig can name a program to run for credentials), -s/--server
// (it would send the current credentials elsewhere), --as (impersonation), -f (reads manifests,
// also from URLs), --raw and --flatten (print credentials), --log-file and --cache-dir (write).
const KUBECTL_FLAGS = [
  '-n',
  '--namespace',
  '-A',
  '--all-namespaces',
  '-o',
  '--output',
  '-l',
  '--selector',
  '--field-selector',
  '--show-labels',
  '--show-kind',
  '-L',
  '--label-columns',
  '--sort-by',
  '--no-headers',
  '--ignore-not-found',
  '--context',
  '--tail',
  '--since',
  '--since-time',
  '-c',
  '--container',
  '--all-containers',
  '-p',
  '--previous',
  '--timestamps',
  '--prefix',
  '--containers',
  '--recursive',
  '--api-version',
  '--minify',
  '--client',
  '--namespaced',
  '--verbs',
  '--api-group',
];

// Output formats that read a template file (-o go-template-file=PATH ...) and Secrets, whose
// values get and describe would print.
const KUBECTL_REFUSED = /file=|(^|,)secrets?($|[/,.])/i;

// systemctl -H runs ssh to another machine, -M enters a container.
const SYSTEMCTL_FORBIDDEN = ['-H', '--host', '-M', '--machine'];

// journalctl options that choose and shape what is printed.
const JOURNALCTL_FLAGS = [
  '-b',
  '--boot',
  '-k',
  '--dmesg',
  '-u',
  '--unit',
  '--user-unit',
  '--user',
  '--system',
  '-p',
  '--priority',
  '-n',
  '--lines',
  '-e',
  '--pager-end',
  '-r',
  '--reverse',
  '-S',
  '--since',
  '-U',
  '--until',
  '-g',
  '--grep',
  '--case-sensitive',
  '-o',
  '--output',
  '-x',
  '--catalog',
  '-q',
  '--quiet',
  '--no-pager',
  '--no-hostname',
  '--list-boots',
  '--utc',
  '-t',
  '--identifier',
];

/** Docker, kubectl, service managers and disk tools. */
export const SERVICE_READ_ONLY: readonly ReadOnlyRuleSpec[] = [
  sub(
    'docker',
    ['ps', 'images', 'logs', 'inspect', 'version', 'info'],
    {
      match: ['docker ps -a', 'docker logs --tail 50 app', 'docker inspect app'],
      no_match: ['docker rm x', 'docker -H ssh://me@host ps'],
    },
    { forbidden_flags: DOCKER_FORBIDDEN },
  ),
  // No docker compose command runs without a card: compose loads the project first, filling the
  // values of the .env next to each compose file (its own, and those of every file it includes or
  // extends, from anywhere) into names it prints, also in its errors; the decision reads no compose
  // file, so it cannot know which .env files a project takes in.
  sub(
    'kubectl',
    [
      'get',
      'describe',
      'logs',
      'top',
      'explain',
      'api-resources',
      'api-versions',
      'version',
      'auth can-i',
    ],
    {
      match: ['kubectl get pods -n dev', 'kubectl logs web-1 -c app --tail 50'],
      no_match: [
        'kubectl delete pod x',
        'kubectl get pods --kubeconfig ./k',
        'kubectl get secret db -o yaml',
        'kubectl get pods -o go-template-file=/etc/shadow',
      ],
    },
    { allowed_flags: KUBECTL_FLAGS, paths: refusing(KUBECTL_REFUSED) },
  ),
  // config view without --raw/--flatten prints credentials as DATA+OMITTED / REDACTED.
  sub(
    'kubectl',
    ['config view', 'config get-contexts', 'config current-context'],
    {
      match: ['kubectl config view --minify', 'kubectl config get-contexts'],
      no_match: ['kubectl config view --raw', 'kubectl config use-context prod'],
    },
    { allowed_flags: KUBECTL_FLAGS, paths: refusing(KUBECTL_REFUSED) },
  ),
  // systemctl asks systemd over D-Bus, and a call without a card sees no host socket: these run
  // without a card only to fail there (as `crontab -l` would); no more of them are added.
  sub(
    'systemctl',
    ['status', 'is-active', 'is-enabled', 'list-units'],
    {
      match: ['systemctl status nginx'],
      no_match: ['systemctl stop nginx', 'systemctl -H me@host status nginx'],
    },
    { forbidden_flags: SYSTEMCTL_FORBIDDEN },
  ),
  // The journal as the user may read it; options that follow, write (--vacuum-*, --rotate,
  // --flush, --setup-keys, --update-catalog) or reach other machines (-M) are not in the list.
  {
    name: 'journalctl',
    binary: 'journalctl',
    allowed_flags: JOURNALCTL_FLAGS,
    examples: {
      match: [
        'journalctl -p err -b --no-pager -n 30',
        'journalctl --user -u backup.service --since today',
      ],
      no_match: ['journalctl --vacuum-time=1d', 'journalctl -f', 'journalctl -M box'],
    },
  },
  // The kernel's ring buffer; -c/-C clear it and -n/-D/-E set the console, -w follows.
  {
    name: 'dmesg',
    binary: 'dmesg',
    allowed_flags: [
      '-l',
      '--level',
      '-T',
      '--ctime',
      '-k',
      '--kernel',
      '-x',
      '--decode',
      '-t',
      '--notime',
      '-H',
      '--human',
      '-L',
      '--color',
      '-f',
      '--facility',
      '-P',
      '--nopager',
    ],
    max_args: 0,
    examples: {
      match: ['dmesg --level=err,warn -T', 'dmesg -T'],
      no_match: ['dmesg -C', 'dmesg -w'],
    },
  },
  sub('launchctl', ['print', 'list'], {
    match: ['launchctl print system/x'],
    no_match: ['launchctl stop x'],
  }),
  sub('diskutil', ['list', 'info', 'apfs list'], {
    match: ['diskutil info disk0', 'diskutil apfs list'],
    no_match: ['diskutil eraseDisk x'],
  }),
  {
    name: 'sgdisk -p',
    binary: 'sgdisk',
    allowed_flags: ['-p', '--print'],
    required_flags: ['-p', '--print'],
    max_args: 1,
    examples: { match: ['sgdisk -p /dev/sda'], no_match: ['sgdisk -Z /dev/sda'] },
  },
];
