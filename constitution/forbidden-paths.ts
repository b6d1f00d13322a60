// Paths no call may touch, whatever the intent (Law 2: no secrets leave the machine; Law 5: no
// taking the machine away). Patterns run on lexically normalised paths (see normalize-path.ts):
// absolute ones are anchored at /, dot-directories match as a path segment anywhere (relative
// to any cwd and under any home).

/** One forbidden path family: its name (what the audit log says), why, and the pattern. */
export interface ForbiddenPath {
  /** Human name used in the denial reason: "forbidden path: <name>". */
  readonly name: string;
  readonly why: string;
  readonly pattern: RegExp;
  /**
   * secret: reading or mentioning it anywhere in the args is the risk.
   * device: only touching the content is (ls, lsblk or stat of a disk is fine).
   */
  readonly kind: 'secret' | 'device';
  /** Concrete paths the pattern must match (~ is the home); used to test globs and by the tests. */
  readonly samples: readonly string[];
  /**
   * What the shell sandbox hides of this family when it exists: paths relative to each home,
   * absolute system paths; a `*` stands for any one name. The guard forbids the words; the
   * masks hide the bytes from whatever a command opens by other means.
   */
  readonly masks?: { readonly home?: readonly string[]; readonly system?: readonly string[] };
  /** Why the sandbox leaves this family visible, for a family without masks. */
  readonly unmasked?: string;
  /**
   * A `*.pub` file of this family that holds only public key lines is readable (public-keys.ts):
   * the public half of a key pair is not a secret. Reads only; writes keep the family's rule.
   */
  readonly publicHalves?: true;
}

// A path segment boundary on the left: start of the path or a slash.
const SEG = '(?:^|/)';
// The end of a segment: end of the path or a slash (so /etc/passwd.txt is not /etc/passwd).
const END = '(?:/|$)';

/** The forbidden path families, most specific first (the first match names the rule). */
export const FORBIDDEN_PATHS: readonly ForbiddenPath[] = [
  {
    name: 'custode config and credentials (~/.config/custode)',
    why: 'the assistant must not read or rewrite its own keys and rules',
    pattern: new RegExp(`${SEG}\\.config/custode${END}`),
    kind: 'secret',
    samples: ['~/.config/custode/credentials.env', '~/.config/custode/config.yaml'],
    masks: { home: ['.config/custode'] },
  },
  {
    name: 'application credentials (~/.config/*/credentials.env)',
    why: 'tools keep API tokens there',
    pattern: new RegExp(`${SEG}\\.config/[^/]+/credentials\\.env$`),
    kind: 'secret',
    samples: ['~/.config/gh/credentials.env'],
    masks: { home: ['.config/*/credentials.env'] },
  },
  {
    name: 'ssh keys and config (~/.ssh)',
    why: 'private keys are the identity that logs into every other machine',
    pattern: new RegExp(`${SEG}\\.ssh${END}`),
    kind: 'secret',
    samples: [
      '~/.ssh/id_rsa',
      '~/.ssh/id_ed25519',
      '~/.ssh/config',
      '/home/bob/.ssh/authorized_keys',
    ],
    masks: { home: ['.ssh'] },
    publicHalves: true,
  },
  {
    name: 'account and privilege databases (/etc/passwd, shadow, gshadow, sudoers)',
    why: 'password hashes and who may become root',
    pattern: /^\/etc\/(?:passwd|shadow|gshadow|sudoers)-?(?:\/|$)|^\/etc\/sudoers\.d(?:\/|$)/,
    kind: 'secret',
    samples: [
      '/etc/passwd',
      '/etc/shadow',
      '/etc/gshadow',
      '/etc/sudoers',
      '/etc/sudoers.d/90-users',
      '/etc/shadow-',
    ],
    masks: {
      system: [
        '/etc/shadow',
        '/etc/shadow-',
        '/etc/gshadow',
        '/etc/gshadow-',
        '/etc/sudoers',
        '/etc/sudoers.d',
      ],
    },
  },
  {
    name: 'ssh server keys and config (/etc/ssh)',
    why: 'host private keys let anyone impersonate this machine',
    pattern: /^\/etc\/ssh(?:\/|$)/,
    kind: 'secret',
    samples: ['/etc/ssh/ssh_host_ed25519_key', '/etc/ssh/sshd_config'],
    masks: { system: ['/etc/ssh/ssh_host_*_key'] },
  },
  {
    name: 'authentication policy (/etc/security)',
    why: 'old password hashes and the limits that decide who gets in',
    pattern: /^\/etc\/security(?:\/|$)/,
    kind: 'secret',
    samples: ['/etc/security/opasswd', '/etc/security/limits.conf'],
    masks: { system: ['/etc/security/opasswd'] },
  },
  {
    name: 'TLS private keys (/etc/ssl/private)',
    why: 'server private keys',
    pattern: /^\/etc\/ssl\/private(?:\/|$)/,
    kind: 'secret',
    samples: ['/etc/ssl/private/ssl-cert-snakeoil.key'],
    masks: { system: ['/etc/ssl/private'] },
  },
  {
    name: "the superuser's home (/root)",
    why: "root's keys, history and startup files",
    pattern: /^\/root(?:\/|$)/,
    kind: 'secret',
    samples: ['/root', '/root/.bashrc', '/root/.profile'],
    unmasked: 'an ordinary user cannot read it, and for a daemon run as root it is the home itself',
  },
  {
    name: 'boot loader passwords (/boot/grub*/grub.cfg, user.cfg, custom.cfg)',
    why: 'the GRUB password hash lives there; listing /boot or reading a kernel config is harmless, and writes under /boot are the dangerous-shell rules (a system tree)',
    pattern: /^\/boot\/(?:grub2?|efi\/EFI\/[^/]+)\/(?:grub|user|custom)\.cfg$/,
    kind: 'secret',
    samples: ['/boot/grub/grub.cfg', '/boot/grub2/user.cfg', '/boot/efi/EFI/debian/grub.cfg'],
    unmasked: 'root-only on a normal system; the sandbox binds the system read-only',
  },
  {
    name: 'kernel secrets and firmware (/sys/kernel, /sys/firmware, raw device memory)',
    why: 'kernel layout and debug state, EFI variables and raw device memory; /sys/class, /sys/block and /sys/devices attributes (battery, temperature, network) are plain system information, and writes anywhere in /sys are the dangerous-shell rules',
    pattern:
      /^\/sys\/(?:kernel|firmware|power|hypervisor)(?:\/|$)|^\/sys\/.+\/(?:resource\d*(?:_wc)?|rom|config|vpd|eeprom|nvmem|mem)$/,
    kind: 'secret',
    samples: [
      '/sys/kernel/vmcoreinfo',
      '/sys/kernel/debug/x',
      '/sys/firmware/efi/efivars/x',
      '/sys/bus/pci/devices/0000:00:02.0/resource0',
      '/sys/bus/pci/devices/0000:00:02.0/config',
    ],
    unmasked:
      'the sandbox binds the system read-only and has no capability to reconfigure the kernel',
  },
  {
    name: 'process memory and environment (/proc/<pid>/environ, mem, cmdline, fd, root ...)',
    why: "environ, mem and cmdline hold other processes' secrets (our own keys among them), and fd, root, cwd and exe reach any file the process holds; status, stat, limits and /proc/cpuinfo-style files are plain system information",
    pattern:
      /^\/proc\/(?:kcore|kmem|kallsyms|keys|key-users|kpagecount|kpageflags|kpagecgroup|sysrq-trigger)(?:\/|$)|^\/proc\/(?:[^/]+\/)+(?:environ|mem|maps|smaps|smaps_rollup|numa_maps|pagemap|auxv|cmdline|fd|fdinfo|map_files|root|cwd|exe|syscall|stack|timers|attr)(?:\/|$)/,
    kind: 'secret',
    samples: [
      '/proc/self/environ',
      '/proc/1/mem',
      '/proc/kcore',
      '/proc/unknown/environ',
      '/proc/self/task/7/environ',
      '/proc/42/cmdline',
      '/proc/self/root/etc/hostname',
      '/proc/thread-self/fd/3',
    ],
    unmasked: 'the sandbox mounts its own /proc, which shows only its own processes',
  },
  {
    name: 'physical memory (/dev/mem, /dev/kmem, /dev/port)',
    why: 'raw memory of the whole machine',
    pattern: /^\/dev\/(?:mem|kmem|port)$/,
    kind: 'secret',
    samples: ['/dev/mem'],
    unmasked: 'the sandbox mounts its own minimal /dev without these nodes',
  },
  {
    name: 'raw block devices (/dev/sd*, nvme*, vd*, mmcblk*, disk/*, mapper/*)',
    why: 'the whole disk: every file of every user, and one write destroys it',
    pattern:
      /^\/dev\/(?:(?:sd|hd|vd|xvd)[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?|r?disk\d+(?:s\d+)?|dm-\d+|md\d+|loop\d+|sr\d+|disk\/.+|mapper\/.+)$/,
    kind: 'device',
    samples: [
      '/dev/sda',
      '/dev/sdb1',
      '/dev/nvme0n1',
      '/dev/nvme0n1p2',
      '/dev/vda',
      '/dev/xvda1',
      '/dev/mmcblk0',
      '/dev/disk0',
      '/dev/disk/by-id/ata-x',
      '/dev/mapper/root',
    ],
    unmasked: 'the sandbox mounts its own minimal /dev without disk nodes',
  },
  {
    name: 'cloud credentials (~/.aws, ~/.azure, ~/.config/gcloud)',
    why: 'keys to whole cloud accounts',
    pattern: new RegExp(`${SEG}(?:\\.aws|\\.azure|\\.config/gcloud)${END}`),
    kind: 'secret',
    samples: [
      '~/.aws/credentials',
      '~/.aws/config',
      '~/.azure/accessTokens.json',
      '~/.config/gcloud/credentials.db',
    ],
    masks: { home: ['.aws', '.azure', '.config/gcloud'] },
  },
  {
    name: 'gpg keys (~/.gnupg)',
    why: 'private signing and encryption keys',
    pattern: new RegExp(`${SEG}\\.gnupg${END}`),
    kind: 'secret',
    samples: ['~/.gnupg/private-keys-v1.d/x.key'],
    masks: { home: ['.gnupg'] },
  },
  {
    name: 'stored passwords (~/.netrc, ~/.git-credentials, ~/.password-store, keyrings)',
    why: 'plain or decryptable passwords for other services',
    pattern: new RegExp(
      `${SEG}(?:[._]netrc|\\.git-credentials|\\.password-store|\\.local/share/keyrings|\\.gnome2/keyrings)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.netrc',
      '~/.git-credentials',
      '~/.password-store/mail.gpg',
      '~/.local/share/keyrings/login.keyring',
    ],
    masks: {
      home: [
        '.netrc',
        '_netrc',
        '.git-credentials',
        '.password-store',
        '.local/share/keyrings',
        '.gnome2/keyrings',
      ],
    },
  },
  {
    name: 'container and cluster credentials (~/.docker/config.json, ~/.kube, podman auth.json)',
    why: 'registry tokens and cluster admin certificates',
    pattern: new RegExp(
      `${SEG}(?:\\.docker/config\\.json$|\\.kube${END}|\\.config/containers/auth\\.json$)|^/run/user/[^/]+/containers/auth\\.json$`,
    ),
    kind: 'secret',
    samples: [
      '~/.docker/config.json',
      '~/.kube/config',
      '~/.kube/cache/token',
      '~/.config/containers/auth.json',
      '/run/user/1000/containers/auth.json',
    ],
    masks: {
      home: ['.docker/config.json', '.kube', '.config/containers/auth.json'],
      system: ['/run/user/*/containers/auth.json'],
    },
  },
  {
    name: 'network, VPN and mount secrets (NetworkManager, wpa_supplicant, iwd, WireGuard, OpenVPN, PPP, SMB, davfs2, s3fs)',
    why: 'wifi and VPN passwords and private keys, and the logins of network drives',
    pattern: new RegExp(
      // The system's stores, the home's, and the files known by their kind wherever they sit: a
      // NetworkManager connection (psk=, password=), an OpenVPN profile (keys inline), a
      // WireGuard interface (PrivateKey =).
      `^/etc/(?:NetworkManager/system-connections|wpa_supplicant|wpa_supplicant\\.conf|wireguard|openvpn|ppp/(?:chap|pap|srp)-secrets|davfs2/secrets|passwd-s3fs)${END}|^/var/lib/iwd${END}|${SEG}(?:\\.config/wireguard|\\.cert/nm-openvpn|\\.smbcredentials|\\.davfs2/secrets|\\.passwd-s3fs)${END}|[^/]\\.(?:nmconnection|ovpn)$|${SEG}wg[\\w-]*\\.conf$`,
    ),
    kind: 'secret',
    samples: [
      '/etc/NetworkManager/system-connections/Home WiFi.nmconnection',
      '~/vpn/office.nmconnection',
      '/etc/wpa_supplicant/wpa_supplicant.conf',
      '/var/lib/iwd/HomeNet.psk',
      '/etc/wireguard/wg0.conf',
      '~/.config/wireguard/wg0.conf',
      '~/vpn/wg-home.conf',
      '/etc/openvpn/client/work.conf',
      '~/vpn/work.ovpn',
      '~/.cert/nm-openvpn/work-key.pem',
      '/etc/ppp/chap-secrets',
      '~/.smbcredentials',
      '~/.davfs2/secrets',
      '~/.passwd-s3fs',
    ],
    // A connection, profile or interface file elsewhere is known by its name only: the guard
    // refuses every spelling of it, and the sandbox cannot mask a name it has not seen.
    masks: {
      home: [
        '.config/wireguard',
        '.cert/nm-openvpn',
        '.smbcredentials',
        '.davfs2/secrets',
        '.passwd-s3fs',
      ],
      system: [
        '/etc/NetworkManager/system-connections',
        '/etc/wpa_supplicant',
        '/etc/wpa_supplicant.conf',
        '/var/lib/iwd',
        '/etc/wireguard',
        '/etc/openvpn',
        '/etc/ppp/chap-secrets',
        '/etc/ppp/pap-secrets',
        '/etc/ppp/srp-secrets',
        '/etc/davfs2/secrets',
        '/etc/passwd-s3fs',
      ],
    },
  },
  {
    name: 'developer tokens (~/.config/gh, glab-cli, ~/.npmrc, ~/.pypirc, ~/.cargo/credentials, ~/.vault-token ...)',
    why: "tokens that publish packages and push code in the person's name",
    pattern: new RegExp(
      `${SEG}(?:\\.config/(?:gh|hub|glab-cli)|\\.npmrc|\\.pypirc|\\.cargo/credentials(?:\\.toml)?|\\.terraform\\.d/credentials\\.tfrc\\.json|\\.vault-token)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.config/gh/hosts.yml',
      '~/.config/hub',
      '~/.config/glab-cli/config.yml',
      '~/.npmrc',
      '~/.pypirc',
      '~/.cargo/credentials.toml',
      '~/.terraform.d/credentials.tfrc.json',
      '~/.vault-token',
    ],
    masks: {
      home: [
        '.config/gh',
        '.config/hub',
        '.config/glab-cli',
        '.npmrc',
        '.pypirc',
        '.cargo/credentials',
        '.cargo/credentials.toml',
        '.terraform.d/credentials.tfrc.json',
        '.vault-token',
      ],
    },
  },
  {
    name: 'browser profiles and password managers (~/.mozilla, Chrome, Chromium, Brave, KeePassXC, Bitwarden ...)',
    why: 'saved passwords, session cookies and password vaults',
    pattern: new RegExp(
      `${SEG}(?:\\.mozilla|\\.config/(?:google-chrome|chromium|BraveSoftware|microsoft-edge|vivaldi|opera|keepassxc|Bitwarden|1Password)|snap/(?:firefox|chromium)|\\.local/share/kwalletd|Library/Keychains)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.mozilla/firefox/x.default/logins.json',
      '~/.config/google-chrome/Default/Login Data',
      '~/.config/chromium/Default/Cookies',
      '~/.config/BraveSoftware',
      '~/.config/keepassxc/keepassxc.ini',
      '~/.config/Bitwarden/data.json',
      '~/snap/firefox/common',
      '~/.local/share/kwalletd/kdewallet.kwl',
      '~/Library/Keychains/login.keychain-db',
    ],
    masks: {
      home: [
        '.mozilla',
        '.config/google-chrome',
        '.config/chromium',
        '.config/BraveSoftware',
        '.config/microsoft-edge',
        '.config/vivaldi',
        '.config/opera',
        '.config/keepassxc',
        '.config/Bitwarden',
        '.config/1Password',
        'snap/firefox',
        'snap/chromium',
        '.local/share/kwalletd',
        'Library/Keychains',
      ],
    },
  },
  {
    name: 'keys to live sessions (~/.Xauthority, ~/.ICEauthority, Jupyter kernel connection files)',
    why: "an X cookie lets a program read and type into the person's display; a kernel's connection file holds the key that runs code in it",
    pattern: new RegExp(
      `${SEG}(?:\\.Xauthority|\\.ICEauthority|\\.local/share/jupyter/runtime)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.Xauthority',
      '~/.ICEauthority',
      '~/.local/share/jupyter/runtime/kernel-4f2a.json',
    ],
    masks: { home: ['.Xauthority', '.ICEauthority', '.local/share/jupyter/runtime'] },
  },
  {
    name: 'more stored logins and histories (~/.pgpass, ~/.my.cnf, ~/.mylogin.cnf, Thunderbird, rclone, Slack, Spotify, shell histories ...)',
    why: 'database and mail passwords, cloud-storage keys, session cookies, and commands typed with secrets in them',
    pattern: new RegExp(
      // A history is known by its name, whatever the tool: a dotfile ending in `history` or
      // `_hist` (.irb_history, .pry_history, .Rhistory, .lesshst), a `*_history` file below a
      // dot-directory (.mongosh/mongosh_repl_history, .julia/logs/repl_history.jl), and the
      // editors' registers (viminfo, neovim's shada).
      `${SEG}(?:\\.pgpass|\\.my\\.cnf|\\.mylogin\\.cnf|\\.config/spotify|\\.thunderbird|\\.config/(?:rclone|op|Slack|discord|Signal)|\\.[\\w.-]*(?:history|_hist|hst)|\\.[^/]+/(?:[^/]+/)*[\\w.-]*_history(?:\\.\\w+)?|\\.histfile|\\.dbshell|\\.viminfo|\\.local/(?:share|state)/nvim/shada|\\.ipython/profile_[^/]+/history\\.sqlite)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.pgpass',
      '~/.my.cnf',
      '~/.mylogin.cnf',
      '~/.config/spotify/prefs',
      '~/.thunderbird/x.default/logins.json',
      '~/.config/rclone/rclone.conf',
      '~/.config/op/config',
      '~/.config/Slack/Cookies',
      '~/.bash_history',
      '~/.zsh_history',
      '~/.python_history',
      '~/.local/share/fish/fish_history',
      '~/.irb_history',
      '~/.mongosh/mongosh_repl_history',
      '~/.viminfo',
      '~/.local/share/nvim/shada/main.shada',
      '~/.julia/logs/repl_history.jl',
    ],
    masks: {
      home: [
        '.pgpass',
        '.my.cnf',
        '.mylogin.cnf',
        '.config/spotify',
        '.thunderbird',
        '.config/rclone',
        '.config/op',
        '.config/Slack',
        '.config/discord',
        '.config/Signal',
        '.bash_history',
        '.zsh_history',
        '.python_history',
        '.psql_history',
        '.mysql_history',
        '.node_repl_history',
        '.sqlite_history',
        '.rediscli_history',
        '.histfile',
        '.local/share/fish/fish_history',
        '.irb_history',
        '.pry_history',
        '.lesshst',
        '.Rhistory',
        '.sh_history',
        '.dbshell',
        '.mongosh/mongosh_repl_history',
        '.viminfo',
        '.local/share/nvim/shada',
        '.local/state/nvim/shada',
        '.julia/logs/repl_history.jl',
        '.ipython/profile_default/history.sqlite',
      ],
    },
  },
  {
    name: "other agents' logins (Claude Code, Codex, Copilot, Gemini, WakaTime)",
    why: 'tokens that act as the person with another assistant or coding service',
    pattern: new RegExp(
      `${SEG}(?:\\.claude/\\.credentials\\.json|\\.codex/auth\\.json|\\.config/github-copilot|\\.gemini/(?:oauth_creds|google_accounts)\\.json|\\.wakatime\\.cfg)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.claude/.credentials.json',
      '~/.codex/auth.json',
      '~/.config/github-copilot/hosts.json',
      '~/.gemini/oauth_creds.json',
      '~/.wakatime.cfg',
    ],
    masks: {
      home: [
        '.claude/.credentials.json',
        '.codex/auth.json',
        '.config/github-copilot',
        '.gemini/oauth_creds.json',
        '.gemini/google_accounts.json',
        '.wakatime.cfg',
      ],
    },
  },
  {
    name: 'cloud and deploy CLIs (OCI, DigitalOcean, Fly, Hetzner, Heroku, Vercel, Netlify, Supabase, Cloudflare, Firebase, Stripe, ngrok, S3, MinIO, Talos, minikube)',
    why: "tokens and keys that deploy, bill and delete in the person's accounts",
    pattern: new RegExp(
      `${SEG}(?:\\.oci|\\.config/(?:doctl|hcloud|heroku|netlify|stripe|ngrok)|\\.fly|\\.local/share/com\\.vercel\\.cli|\\.supabase|\\.wrangler|\\.config/configstore/firebase-tools\\.json|\\.ngrok2|\\.s3cfg|\\.boto|\\.talos|\\.minikube|\\.mc/config\\.json)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.oci/config',
      '~/.config/doctl/config.yaml',
      '~/.fly/config.yml',
      '~/.config/hcloud/cli.toml',
      '~/.local/share/com.vercel.cli/auth.json',
      '~/.supabase/access-token',
      '~/.wrangler/config/default.toml',
      '~/.config/configstore/firebase-tools.json',
      '~/.ngrok2/ngrok.yml',
      '~/.s3cfg',
      '~/.minikube/profiles/minikube/client.key',
      '~/.mc/config.json',
    ],
    masks: {
      home: [
        '.oci',
        '.config/doctl',
        '.config/hcloud',
        '.config/heroku',
        '.config/netlify',
        '.config/stripe',
        '.config/ngrok',
        '.fly',
        '.local/share/com.vercel.cli',
        '.supabase',
        '.wrangler',
        '.config/configstore/firebase-tools.json',
        '.ngrok2',
        '.s3cfg',
        '.boto',
        '.talos',
        '.minikube',
        '.mc/config.json',
      ],
    },
  },
  {
    name: 'package registry logins (Maven, Gradle, RubyGems, pip, Composer, Yarn, git credentials)',
    why: "passwords and tokens that publish packages in the person's name",
    pattern: new RegExp(
      `${SEG}(?:\\.m2/settings(?:-security)?\\.xml|\\.gradle/gradle\\.properties|\\.gem/credentials|(?:\\.config/pip|\\.pip)/pip\\.conf|(?:\\.config/composer|\\.composer)/auth\\.json|\\.yarnrc\\.yml|\\.config/git/credentials)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.m2/settings.xml',
      '~/.gradle/gradle.properties',
      '~/.gem/credentials',
      '~/.config/pip/pip.conf',
      '~/.composer/auth.json',
      '~/.yarnrc.yml',
      '~/.config/git/credentials',
    ],
    masks: {
      home: [
        '.m2/settings.xml',
        '.m2/settings-security.xml',
        '.gradle/gradle.properties',
        '.gem/credentials',
        '.config/pip/pip.conf',
        '.pip/pip.conf',
        '.config/composer/auth.json',
        '.composer/auth.json',
        '.yarnrc.yml',
        '.config/git/credentials',
      ],
    },
  },
  {
    name: 'data platform keys (Kaggle, Hugging Face, Databricks)',
    why: "API keys that download, upload and run jobs in the person's data accounts",
    pattern: new RegExp(
      `${SEG}(?:\\.kaggle|\\.config/kaggle|\\.huggingface|\\.cache/huggingface/(?:token|stored_tokens)|\\.databrickscfg)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.kaggle/kaggle.json',
      '~/.config/kaggle/kaggle.json',
      '~/.huggingface/token',
      '~/.cache/huggingface/token',
      '~/.cache/huggingface/stored_tokens',
      '~/.databrickscfg',
    ],
    masks: {
      home: [
        '.kaggle',
        '.config/kaggle',
        '.huggingface',
        '.cache/huggingface/token',
        '.cache/huggingface/stored_tokens',
        '.databrickscfg',
      ],
    },
  },
  {
    name: 'mail and chat client logins (aerc, msmtp, fetchmail, mbsync, OfflineIMAP, mutt, himalaya, irssi, WeeChat)',
    why: 'mail and chat passwords, often in clear: whoever reads them reads and sends mail as the person',
    pattern: new RegExp(
      `${SEG}(?:\\.config/aerc/accounts\\.conf|\\.msmtprc|\\.config/msmtp|\\.fetchmailrc|\\.mbsyncrc|\\.config/isyncrc|\\.offlineimaprc|\\.config/offlineimap|\\.muttrc|\\.mutt|\\.config/mutt|\\.config/neomutt|\\.config/himalaya|\\.irssi/config|\\.weechat/sec\\.conf|\\.config/weechat/sec\\.conf)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.config/aerc/accounts.conf',
      '~/.msmtprc',
      '~/.config/msmtp/config',
      '~/.fetchmailrc',
      '~/.mbsyncrc',
      '~/.offlineimaprc',
      '~/.muttrc',
      '~/.mutt/muttrc',
      '~/.config/neomutt/neomuttrc',
      '~/.config/himalaya/config.toml',
      '~/.irssi/config',
      '~/.config/weechat/sec.conf',
    ],
    masks: {
      home: [
        '.config/aerc/accounts.conf',
        '.msmtprc',
        '.config/msmtp',
        '.fetchmailrc',
        '.mbsyncrc',
        '.config/isyncrc',
        '.offlineimaprc',
        '.config/offlineimap',
        '.muttrc',
        '.mutt',
        '.config/mutt',
        '.config/neomutt',
        '.config/himalaya',
        '.irssi/config',
        '.weechat/sec.conf',
        '.config/weechat/sec.conf',
      ],
    },
  },
  {
    name: 'encryption keys and wallets (age, sops, Solana, Ethereum, Bitcoin, Electrum)',
    why: "keys that decrypt the person's secrets or spend their money",
    pattern: new RegExp(
      `${SEG}(?:\\.config/(?:age|sops|solana)|\\.ethereum/keystore|\\.bitcoin|\\.electrum)${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.config/age/keys.txt',
      '~/.config/sops/age/keys.txt',
      '~/.config/solana/id.json',
      '~/.ethereum/keystore/UTC--x',
      '~/.bitcoin/wallet.dat',
      '~/.electrum/wallets/default_wallet',
    ],
    masks: {
      home: [
        '.config/age',
        '.config/sops',
        '.config/solana',
        '.ethereum/keystore',
        '.bitcoin',
        '.electrum',
      ],
    },
  },
  {
    name: 'chat sessions and clients that keep passwords (Telegram Desktop, Keybase, LastPass, VS Code secrets, FileZilla, Remmina, Pidgin, Atuin, Element, HexChat, Flatpak browsers, password managers and Spotify)',
    why: 'a logged-in session, or passwords kept in plain text',
    pattern: new RegExp(
      `${SEG}(?:\\.local/share/(?:TelegramDesktop|remmina|atuin)|\\.config/(?:keybase|filezilla|remmina|Element|hexchat|(?:Code|Code - OSS|VSCodium|Cursor)/User/globalStorage/state\\.vscdb)|\\.lastpass|\\.purple|\\.var/app/(?:org\\.mozilla\\.firefox|com\\.google\\.Chrome|org\\.chromium\\.Chromium|com\\.brave\\.Browser|com\\.microsoft\\.Edge|com\\.bitwarden\\.desktop|org\\.keepassxc\\.KeePassXC|org\\.telegram\\.desktop|org\\.signal\\.Signal|com\\.slack\\.Slack|org\\.mozilla\\.Thunderbird|com\\.spotify\\.Client|org\\.gnome\\.World\\.Secrets|com\\.onepassword\\.OnePassword|me\\.proton\\.Pass|im\\.riot\\.Riot))${END}`,
    ),
    kind: 'secret',
    samples: [
      '~/.local/share/TelegramDesktop/tdata/key_datas',
      '~/.config/keybase/config.json',
      '~/.lastpass/session',
      '~/.config/Code/User/globalStorage/state.vscdb',
      '~/.config/filezilla/sitemanager.xml',
      '~/.purple/accounts.xml',
      '~/.local/share/atuin/history.db',
      '~/.var/app/org.keepassxc.KeePassXC/data/passwords.kdbx',
      '~/.var/app/org.gnome.World.Secrets/data/passwords.kdbx',
      '~/.config/Element/Local Storage/leveldb/1.ldb',
      '~/.config/hexchat/servlist.conf',
    ],
    masks: {
      home: [
        '.local/share/TelegramDesktop',
        '.local/share/remmina',
        '.local/share/atuin',
        '.config/keybase',
        '.config/filezilla',
        '.config/remmina',
        '.config/Element',
        '.config/hexchat',
        '.config/Code/User/globalStorage/state.vscdb',
        '.config/Code - OSS/User/globalStorage/state.vscdb',
        '.config/VSCodium/User/globalStorage/state.vscdb',
        '.config/Cursor/User/globalStorage/state.vscdb',
        '.lastpass',
        '.purple',
        '.var/app/org.mozilla.firefox',
        '.var/app/com.google.Chrome',
        '.var/app/org.chromium.Chromium',
        '.var/app/com.brave.Browser',
        '.var/app/com.microsoft.Edge',
        '.var/app/com.bitwarden.desktop',
        '.var/app/org.keepassxc.KeePassXC',
        '.var/app/org.telegram.desktop',
        '.var/app/org.signal.Signal',
        '.var/app/com.slack.Slack',
        '.var/app/org.mozilla.Thunderbird',
        '.var/app/com.spotify.Client',
        '.var/app/org.gnome.World.Secrets',
        '.var/app/com.onepassword.OnePassword',
        '.var/app/me.proton.Pass',
        '.var/app/im.riot.Riot',
      ],
    },
  },
  {
    name: 'a credential-named file in a dot-directory (credentials.json, auth.json, token.txt, secrets.yaml, api-key.txt ...)',
    why: 'tools nobody listed keep their logins under names like these',
    pattern: new RegExp(
      `${SEG}\\.[^/*?[]+/(?:[^/*?[]+/)*(?:[^/*?[]*[-_.])?(?:credentials?|creds|secrets?|tokens?|auth|api[-_]?keys?|passwords?|access[-_]tokens?|refresh[-_]tokens?)\\.(?:json|ya?ml|toml|ini|cfg|conf|txt|env|xml|properties|db)$`,
      'i',
    ),
    kind: 'secret',
    samples: [
      '~/.config/acme-cli/credentials.json',
      '~/.acme/auth.json',
      '~/.config/acme/token.txt',
      '~/.acme/secrets.yaml',
      '~/.local/share/acme/api-key.txt',
      '~/.acme/Credentials.JSON',
    ],
    unmasked:
      'a pattern of names, not places: the guard refuses every spelling, and a name the sandbox has not seen cannot be masked',
  },
  {
    name: "Custode's own state and audit log (~/.local/share/custode, ~/.local/state/custode)",
    why: 'chat histories, approvals and always-allow rules, and the record no call may rewrite',
    pattern: new RegExp(`${SEG}\\.local/(?:share|state)/custode${END}`),
    kind: 'secret',
    samples: ['~/.local/share/custode/vaglio/2026-11.jsonl', '~/.local/state/custode/rules.json'],
    masks: { home: ['.local/share/custode', '.local/state/custode'] },
  },
];

/**
 * Commands that only read a device's metadata (name, size, partition table listing): a raw
 * device as their argument is not a read of the disk's content.
 */
export const DEVICE_METADATA_COMMANDS: ReadonlySet<string> = new Set([
  'ls',
  'lsblk',
  'stat',
  'file',
  'blkid',
  'findmnt',
  'df',
  'mount',
  'umount',
  'udevadm',
  'smartctl',
  'diskutil',
  'readlink',
  'realpath',
  'test',
  '[',
  // Health, identity and check tools: they print diagnostics, never the disk's content.
  'hdparm',
  'badblocks',
  'fsck',
  'e2fsck',
  'dumpe2fs',
  'tune2fs',
  'udisksctl',
  'eject',
  'nvme',
  // Their destructive forms are judged by the dangerous-shell rules (wipefs -a, sgdisk -Z,
  // badblocks -w, hdparm --security-erase, nvme format ...).
  'wipefs',
  'sgdisk',
  'fdisk',
  'sfdisk',
  'parted',
]);

// One pass over all patterns first: nearly every path matches none, and 17 tests cost more than 1.
// Case-insensitive, as every family is matched (below).
const ANY_FORBIDDEN = new RegExp(
  FORBIDDEN_PATHS.map((rule) => `(?:${rule.pattern.source})`).join('|'),
  'i',
);

// Each family in any case: a store's copy on a case-insensitive stick or in a backup
// (stick/.AWS/Credentials, .SSH/ID_RSA) holds the same secret under a name its tool would open
// there, and no tool keeps an ordinary file under another case of a store's name.
const FOLDED: readonly RegExp[] = FORBIDDEN_PATHS.map(
  (rule) => new RegExp(rule.pattern.source, `${rule.pattern.flags.replace('i', '')}i`),
);

// V8 runs a new pattern in its bytecode interpreter and compiles it to machine code at its second
// use, unless the first subject is 1000 characters or more. The union is large and
// case-insensitive: interpreting it and then compiling it cost a one-shot hook about twice what
// compiling it at once does. So its first use is on such a subject; the answer is the same.
let unionCompiled = false;

function check(path: string, kinds: ReadonlySet<ForbiddenPath['kind']>): ForbiddenPath | null {
  if (!unionCompiled) {
    unionCompiled = true;
    ANY_FORBIDDEN.test(' '.repeat(1000));
  }
  if (!ANY_FORBIDDEN.test(path)) return null;
  for (const [n, rule] of FORBIDDEN_PATHS.entries()) {
    if (kinds.has(rule.kind) && FOLDED[n]?.test(path) === true) return rule;
  }
  return null;
}

const ALL_KINDS: ReadonlySet<ForbiddenPath['kind']> = new Set(['secret', 'device']);

/**
 * The forbidden family a normalised path falls in, or null. A relative path that climbs with
 * `..` is also tried from the root: enough `..` from any cwd reaches it (../../etc/shadow).
 */
export function forbiddenPathRule(
  path: string,
  kinds: ReadonlySet<ForbiddenPath['kind']> = ALL_KINDS,
): ForbiddenPath | null {
  const direct = check(path, kinds);
  if (direct !== null || !path.startsWith('..')) return direct;
  return check(`/${path.replace(/^(?:\.\.\/)+/, '')}`, kinds);
}

/** A raw block device path (normalised), e.g. /dev/sda or /dev/disk/by-id/x. */
export function isBlockDevice(path: string): boolean {
  return FORBIDDEN_PATHS.some((rule) => rule.kind === 'device' && rule.pattern.test(path));
}
