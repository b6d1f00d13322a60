// Types of hook-client.cjs (the socket client of `custode hook` and `custode check`, plain
// CommonJS so it loads without the bundle).
export interface CommandReply {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}
export type HookContext = Readonly<Record<string, string | null>> & {
  readonly config: string | null;
};
export declare const contextVariables: readonly string[];
export declare function hookSocketDir(env: NodeJS.ProcessEnv): string;
export declare function hookSocketPath(env: NodeJS.ProcessEnv): string;
export declare function untrustedSocket(path: string, uid: number): string | null;
export declare function contextOf(
  env: NodeJS.ProcessEnv,
  configPath: string | undefined,
): HookContext;
export type ForwardedCall =
  | {
      readonly command: 'hook';
      readonly agent: 'claude-code' | 'codex';
      readonly config: string | undefined;
    }
  | { readonly command: 'check'; readonly config: string | undefined };
export declare function forwardedCall(argv: readonly string[]): ForwardedCall | null;
export declare function forwarded(
  call: ForwardedCall,
  payload: string,
  env: NodeJS.ProcessEnv,
  waitMs?: number,
): Promise<{ readonly reply: CommandReply } | { readonly failure: string } | null>;
export declare function blockedReply(call: ForwardedCall, failure: string): CommandReply;
export declare function readStdin(): Promise<string>;
export declare function writeOut(fd: 1 | 2, text: string): void;
