// Types of hook-client.cjs (the hook's socket client, plain CommonJS so it loads without the bundle).
export interface HookReply {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0 | 2;
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
export declare function replyOf(text: string): HookReply | null;
export declare function hookCall(
  argv: readonly string[],
): { readonly agent: 'claude-code' | 'codex'; readonly config: string | undefined } | null;
export declare function forwarded(
  agent: 'claude-code' | 'codex',
  configPath: string | undefined,
  payload: string,
  env: NodeJS.ProcessEnv,
): Promise<HookReply | null>;
export declare function readStdin(): Promise<string>;
export declare function writeOut(fd: 1 | 2, text: string): void;
