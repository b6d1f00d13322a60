// The laptop daemon as a service: a systemd user unit (Linux) and a launchd agent (macOS),
// as pure functions of where node, the CLI, the config and the secrets file are.

export interface ServicePaths {
  /** The node binary that runs Custode now (process.execPath). */
  readonly node: string;
  /** runtime/cli/custode.cjs of this clone. */
  readonly cli: string;
  /** `--config` to pass, when not the default. */
  readonly config?: string;
  /** KEY=value lines with the tokens (TELEGRAM_BOT_TOKEN, ...): kept out of the unit. */
  readonly envFile: string;
}

/** systemd quoting for one ExecStart word: quoted when it holds a space, quote, $ or %. */
function systemdWord(word: string): string {
  const escaped = word.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  return /[\s"'\\]/.test(escaped) ? `"${escaped.replace(/[\\"]/g, '\\$&')}"` : escaped;
}

function daemonArgs(paths: ServicePaths): string[] {
  return [
    paths.node,
    paths.cli,
    'daemon',
    ...(paths.config === undefined ? [] : ['--config', paths.config]),
  ];
}

/** The systemd user unit: restarts on failure, stops with SIGTERM (channels first, then turns), reloads its config on SIGHUP. */
export function systemdUnit(paths: ServicePaths): string {
  return `[Unit]
Description=Custode assistant daemon (the channels enabled in its config)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
ExecStart=${daemonArgs(paths).map(systemdWord).join(' ')}
ExecReload=/bin/kill -HUP $MAINPID
# Tokens live here (KEY=value lines, chmod 600), not in the unit; a missing file is allowed.
EnvironmentFile=-${paths.envFile}
WorkingDirectory=%h
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=30

[Install]
WantedBy=default.target
`;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The launchd agent: sources the secrets file, then runs the daemon; restarted if it fails. */
export function launchdPlist(paths: ServicePaths, logFile: string): string {
  const command = `set -a; [ -f ${shellQuote(paths.envFile)} ] && . ${shellQuote(paths.envFile)}; set +a; exec ${daemonArgs(paths).map(shellQuote).join(' ')}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>org.custode.daemon</string>
  <key>ProgramArguments</key>
  <array>
    <string>/bin/sh</string>
    <string>-c</string>
    <string>${xml(command)}</string>
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <dict>
    <key>SuccessfulExit</key>
    <false/>
  </dict>
  <key>StandardErrorPath</key>
  <string>${xml(logFile)}</string>
</dict>
</plist>
`;
}
