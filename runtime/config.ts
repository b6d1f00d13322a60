// One config file, one zod schema, checked eagerly. Every issue becomes
// "path: problem. Fix: ..." so the person knows what to change.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { ConfigError } from './errors.ts';
import { configDir } from './paths.ts';

/**
 * The schemas, built on first use: building the config schema costs a cold `custode hook` about
 * 15 ms of CPU, and a start without a config file takes the defaults the build computed.
 */
function buildSchemas() {
  const executorName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'an executor name in snake_case');

  /** A user-defined read-only shell rule (same shape as the built-in catalogue). */
  const readOnlyRuleSchema = z.strictObject({
    name: z.string().min(1),
    binary: z.string().min(1),
    subcommands: z.array(z.string()).optional(),
    allowed_flags: z.array(z.string()).optional(),
    forbidden_flags: z.array(z.string()).optional(),
    required_flags: z.array(z.string()).optional(),
    max_args: z.number().int().nonnegative().optional(),
    examples: z.strictObject({
      match: z.array(z.string()).min(1),
      no_match: z.array(z.string()).min(1),
    }),
  });

  const llmJudgeSchema = z.strictObject({
    name: z.string().min(1).default('llm'),
    kind: z.literal('llm-v1').default('llm-v1'),
    provider: z.enum(['openai', 'ollama']).optional(),
    model: z.string().optional(),
    base_url: z.string().url().optional(),
    min_score: z.number().min(0).max(1).default(0.5),
    min_confidence: z.number().min(0).max(1).default(0.5),
    timeout_ms: z.number().int().positive().default(20_000),
    on_failure: z.enum(['fail_closed', 'degrade']).default('fail_closed'),
    weight: z.number().positive().default(1),
  });

  const configSchema = z.strictObject({
    /** Filesystem scope. Reads: anywhere the guard allows unless `read` is set. Writes: home and /tmp. */
    roots: z
      .strictObject({
        read: z.array(z.string()).optional(),
        write: z.array(z.string()).default(['~', '/tmp']),
      })
      .default({ write: ['~', '/tmp'] }),
    sandbox: z
      .strictObject({
        mode: z.enum(['bwrap', 'off']).default('bwrap'),
        network: z.boolean().default(false),
        timeout_ceiling_ms: z.number().int().positive().default(600_000),
        default_timeout_ms: z.number().int().positive().default(60_000),
        output_cap_bytes: z
          .number()
          .int()
          .positive()
          .default(512 * 1024),
        /** Largest file a call without a card may write (RLIMIT_FSIZE): dd of /dev/zero fills no disk. */
        uncarded_max_file_bytes: z
          .number()
          .int()
          .min(1)
          .default(256 * 1024 * 1024),
        /** Most processes and threads a call without a card may run at once (RLIMIT_NPROC): a fork bomb stops there. */
        uncarded_max_processes: z.number().int().min(1).default(1024),
        /** Size of each private tmpfs of the sandbox (/tmp, /dev/shm), which lives in RAM. */
        tmp_size_bytes: z
          .number()
          .int()
          .min(1)
          .default(512 * 1024 * 1024),
      })
      .default({
        mode: 'bwrap',
        network: false,
        timeout_ceiling_ms: 600_000,
        default_timeout_ms: 60_000,
        output_cap_bytes: 512 * 1024,
        uncarded_max_file_bytes: 256 * 1024 * 1024,
        uncarded_max_processes: 1024,
        tmp_size_bytes: 512 * 1024 * 1024,
      }),
    shell: z
      .strictObject({
        /** When set, only these binaries run; a list limits the subcommands, "*" allows any. */
        subcommand_allowlist: z
          .record(z.string(), z.union([z.literal('*'), z.array(z.string())]))
          .optional(),
      })
      .default({}),
    web: z
      .strictObject({
        domain_allowlist: z.array(z.string()).optional(),
        /** Hosts or CIDRs that may be fetched although they are loopback/private. */
        private_allowlist: z.array(z.string()).default([]),
        max_bytes: z
          .number()
          .int()
          .positive()
          .default(2 * 1024 * 1024),
        timeout_ms: z.number().int().positive().default(15_000),
        max_redirects: z.number().int().nonnegative().default(5),
      })
      .default({
        private_allowlist: [],
        max_bytes: 2 * 1024 * 1024,
        timeout_ms: 15_000,
        max_redirects: 5,
      }),
    vaglio: z
      .strictObject({
        threshold: z.number().min(0).max(1).optional(),
        judges: z.array(llmJudgeSchema).default([]),
        mode: z.enum(['sequence', 'consensus']).default('sequence'),
        strategy: z
          .enum(['weighted_average', 'majority', 'unanimous', 'best_of_n'])
          .default('weighted_average'),
        best_of_n: z.number().int().positive().default(2),
        min_judges_required: z.number().int().positive().default(1),
        /** Operator switch per executor: skip the LLM judges (never the guard or the rule judge). */
        skip_judge: z.record(executorName, z.boolean()).default({}),
      })
      .default({
        judges: [],
        mode: 'sequence',
        strategy: 'weighted_average',
        best_of_n: 2,
        min_judges_required: 1,
        skip_judge: {},
      }),
    approvals: z
      .strictObject({
        grey_band: z.number().min(0).max(1).default(0.1),
        always_ask: z.array(executorName).default([]),
        never_ask: z.array(executorName).default([]),
        expiry_minutes: z.number().positive().default(10),
        read_only_catalogue: z
          .strictObject({
            enabled: z.boolean().default(true),
            extra: z.array(readOnlyRuleSchema).default([]),
          })
          .default({ enabled: true, extra: [] }),
        /**
         * Shell calls that only create new files, append, record a local git change or work in
         * the private /tmp run without a card (only in the bubblewrap sandbox without network).
         * project_code: the project's build, test and lint scripts too, writing only its git work
         * tree (never .git), or nothing outside one.
         */
        workspace_catalogue: z
          .strictObject({
            enabled: z.boolean().default(true),
            project_code: z.boolean().default(true),
          })
          .default({ enabled: true, project_code: true }),
      })
      .default({
        grey_band: 0.1,
        always_ask: [],
        never_ask: [],
        expiry_minutes: 10,
        read_only_catalogue: { enabled: true, extra: [] },
        workspace_catalogue: { enabled: true, project_code: true },
      }),
    planner: z
      .strictObject({
        mode: z.enum(['multistep', 'single-shot']).default('multistep'),
        max_steps: z.number().int().positive().default(8),
        max_denials_in_a_row: z.number().int().positive().default(3),
        history_max_messages: z.number().int().positive().default(40),
        history_max_chars: z.number().int().positive().default(60_000),
      })
      .default({
        mode: 'multistep',
        max_steps: 8,
        max_denials_in_a_row: 3,
        history_max_messages: 40,
        history_max_chars: 60_000,
      }),
    llm: z
      .strictObject({
        provider: z.enum(['openai', 'ollama', 'offline']).optional(),
        model: z.string().optional(),
        base_url: z.string().url().optional(),
        timeout_ms: z.number().int().positive().default(60_000),
        max_retries: z.number().int().nonnegative().default(3),
      })
      .default({ timeout_ms: 60_000, max_retries: 3 }),
    audit: z
      .strictObject({
        /**
         * A decision whose audit line cannot be written: "refuse" (nothing runs without its line)
         * or "continue" (the call runs unlogged; the operator log says so).
         */
        on_failure: z.enum(['refuse', 'continue']).default('refuse'),
      })
      .default({ on_failure: 'refuse' }),
    /** A local health endpoint: GET http://127.0.0.1:<port>/healthz (off unless a port is set). */
    health: z
      .strictObject({ port: z.number().int().positive().max(65_535).optional() })
      .default({}),
    logs: z
      .strictObject({
        turn_retention_days: z.number().int().positive().default(30),
      })
      .default({ turn_retention_days: 30 }),
    channels: z
      .strictObject({
        local: z.strictObject({ enabled: z.boolean().default(false) }).default({ enabled: false }),
        telegram: z
          .strictObject({
            enabled: z.boolean().default(false),
            api_root: z.string().url().optional(),
            allowed_users: z.array(z.number().int()).default([]),
            approvers: z.array(z.number().int()).default([]),
            /** In a group: answer only messages that mention the bot or reply to it, or all. */
            group_replies: z.enum(['mention', 'all']).default('mention'),
            /** Documents and photos sent to the bot are saved here (default: <first roots.write>/custode-inbox). */
            inbox_dir: z.string().optional(),
            /** Largest attachment saved (the Bot API serves files up to 20 MB). */
            inbox_max_bytes: z
              .number()
              .int()
              .positive()
              .default(20 * 1024 * 1024),
            webhook: z.strictObject({ url: z.string().url(), port: z.number().int() }).optional(),
          })
          .default({
            enabled: false,
            allowed_users: [],
            approvers: [],
            group_replies: 'mention',
            inbox_max_bytes: 20 * 1024 * 1024,
          }),
        slack: z
          .strictObject({
            enabled: z.boolean().default(false),
            mode: z.enum(['socket', 'http']).default('socket'),
            port: z.number().int().positive().default(3000),
            api_url: z.string().url().optional(),
            allowed_users: z.array(z.string()).default([]),
            approvers: z.array(z.string()).default([]),
            team_id: z.string().optional(),
          })
          .default({
            enabled: false,
            mode: 'socket',
            port: 3000,
            allowed_users: [],
            approvers: [],
          }),
        /** Telegram and Slack: an answer the channel could not take is kept and retried this long, then given up (the chat is told). */
        outbox: z
          .strictObject({ max_age_minutes: z.number().positive().default(1440) })
          .default({ max_age_minutes: 1440 }),
      })
      .default({
        local: { enabled: false },
        telegram: {
          enabled: false,
          allowed_users: [],
          approvers: [],
          group_replies: 'mention',
          inbox_max_bytes: 20 * 1024 * 1024,
        },
        slack: { enabled: false, mode: 'socket', port: 3000, allowed_users: [], approvers: [] },
        outbox: { max_age_minutes: 1440 },
      }),
  });
  return { readOnlyRuleSchema, llmJudgeSchema, configSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
let schemas: Schemas | undefined;

/** The config's zod schemas (built once, on first use). */
export function configSchemas(): Schemas {
  return (schemas ??= buildSchemas());
}

export type Config = z.infer<Schemas['configSchema']>;
export type ConfigInput = z.input<Schemas['configSchema']>;
export type LlmJudgeConfig = z.infer<Schemas['llmJudgeSchema']>;
export type ReadOnlyRuleConfig = z.infer<Schemas['readOnlyRuleSchema']>;

/**
 * `defaultConfig()` as JSON, put in the quick bundle by the build (runtime/build/build.mjs), which
 * computes it from the schema; undefined when Custode runs from source.
 */
declare const CUSTODE_DEFAULT_CONFIG_JSON: string | undefined;

/** The embedded default: every field at its default. */
export function defaultConfig(): Config {
  return typeof CUSTODE_DEFAULT_CONFIG_JSON === 'string'
    ? (JSON.parse(CUSTODE_DEFAULT_CONFIG_JSON) as Config)
    : configSchemas().configSchema.parse({});
}

/** How to write a value of the expected type in YAML. */
function typeFix(expected: string): string {
  switch (expected) {
    case 'object':
      return 'give a mapping: indented `key: value` lines under it';
    case 'array':
      return 'give a list: `[a, b]`, or one `- item` line each';
    case 'boolean':
      return 'give true or false';
    case 'string':
      return 'give a text value (quote it if it looks like a number)';
    default:
      return `give a ${expected}`;
  }
}

function fixFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `remove ${issue.keys.map((k) => `"${k}"`).join(', ')} (not a known setting; check the spelling)`;
    case 'invalid_type':
      return typeFix(issue.expected);
    case 'invalid_value':
      return `use one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return `use a value of at least ${String(issue.minimum)}`;
    case 'too_big':
      return `use a value of at most ${String(issue.maximum)}`;
    default:
      return 'correct the value as described';
  }
}

/** Validate a parsed config object; throws ConfigError whose message lists "path: problem. Fix: ...". */
export function parseConfig(raw: unknown, source = 'config'): Config {
  const result = configSchemas().configSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    return `${path}: ${issue.message}. Fix: ${fixFor(issue)}.`;
  });
  throw new ConfigError(`Invalid ${source}:\n${issues.join('\n')}`, issues);
}

export function defaultConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDir(env), 'config.yaml');
}

/**
 * Load the YAML config file. A missing file at the default path is the embedded default;
 * a missing file given explicitly, bad YAML or a bad field is a ConfigError.
 */
export async function loadConfig(
  path?: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: Config; path: string; found: boolean }> {
  const file = path ?? defaultConfigPath(env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && path === undefined) {
      return { config: defaultConfig(), path: file, found: false };
    }
    throw new ConfigError(
      `Cannot read config ${file}: ${(error as Error).message}. Fix: create it or pass --config with an existing file.`,
    );
  }
  // Loaded only when there is a file to read: most starts have none, and every start counts for a hook.
  const { parse: parseYaml } = await import('yaml');
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ConfigError(
      `Config ${file} is not valid YAML: ${(error as Error).message}. Fix: correct the YAML syntax at that line.`,
    );
  }
  return { config: parseConfig(raw, `config ${file}`), path: file, found: true };
}
