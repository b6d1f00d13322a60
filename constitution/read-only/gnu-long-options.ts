// The long options each GNU-style program lists in its --help (coreutils 9, grep, diff, sed, tar,
// file, less, util-linux, procps, systemd, on Debian), without their dashes. Generated with
//   for b in PROGRAMS; do $b --help 2>&1 | grep -oE -- '--[a-zA-Z0-9][a-zA-Z0-9-]*' | sort -u; done
// getopt_long takes any unambiguous prefix of one (`date --fil=F` is `date --file=F`):
// long-options.ts spells such a word out before the catalogue or the guard reads it.
export const GNU_LONG_OPTIONS: Readonly<Record<string, string>> = {
  ls: 'all almost-all author block-size classify color context dereference dereference-command-line dereference-command-line-symlink-to-dir directory dired escape file-type format full-time group-directories-first help hide hide-control-chars human-readable hyperlink ignore ignore-backups indicator-style inode kibibytes literal no-group numeric-uid-gid quote-name quoting-style recursive reverse show-control-chars si size sort tabsize time time-style version width zero',
  cat: 'help number number-nonblank show-all show-ends show-nonprinting show-tabs squeeze-blank version',
  head: 'bytes help lines quiet silent verbose version zero-terminated',
  tail: 'bytes follow help lines max-unchanged-stats pid quiet retry silent sleep-interval verbose version zero-terminated',
  wc: 'bytes chars files0-from help lines max-line-length version words',
  grep: 'after-context basic-regexp before-context binary binary-files byte-offset color colour context count dereference-recursive devices directories exclude exclude-dir exclude-from extended-regexp file files-with-matches files-without-match fixed-strings group-separator help ignore-case include initial-tab invert-match label line-buffered line-number line-regexp max-count no-filename no-group-separator no-ignore-case no-messages null null-data only-matching perl-regexp quiet recursive regexp silent text version with-filename word-regexp',
  du: 'all apparent-size block-size bytes count-links dereference dereference-args exclude exclude-from files0-from help human-readable inodes max-depth no-dereference null one-file-system separate-dirs si summarize threshold time time-style total version',
  file: 'apple brief checking-printout compile debug dereference exclude exclude-quiet extension files-from help keep-going list magic-file mime mime-encoding mime-type no-buffer no-dereference no-pad no-sandbox parameter preserve-date print0 raw separator special-files uncompress uncompress-noreport version',
  stat: 'cached dereference file-system format help printf terse version',
  sort: 'batch-size buffer-size check compress-program debug dictionary-order field-separator files0-from general-numeric-sort help human-numeric-sort ignore-case ignore-leading-blanks ignore-nonprinting key merge month-sort numeric-sort output parallel random-sort random-source reverse sort stable temporary-directory unique version version-sort zero-terminated',
  uniq: 'all-repeated check-chars count group help ignore-case repeated skip-chars skip-fields unique version zero-terminated',
  cut: 'bytes characters complement delimiter fields help only-delimited output-delimiter version zero-terminated',
  tr: 'complement delete help squeeze-repeats truncate-set1 version',
  diff: 'GTYPE-group-format LTYPE-line-format brief color context ed exclude exclude-from expand-tabs from-file help horizon-lines ifdef ignore-all-space ignore-blank-lines ignore-case ignore-file-name-case ignore-matching-lines ignore-space-change ignore-tab-expansion ignore-trailing-space initial-tab label left-column line-format minimal new-file no-dereference no-ignore-file-name-case normal paginate palette rcs recursive report-identical-files show-c-function show-function-line side-by-side speed-large-files starting-file strip-trailing-cr suppress-blank-empty suppress-common-lines tabsize text to-file unidirectional-new-file unified version width',
  less: 'HILITE-SEARCH HILITE-UNREAD IGNORE-CASE LINE-NUMBERS LOG-FILE LONG-PROMPT QUIET QUIT-AT-EOF RAW-CONTROL-CHARS SEARCH-SKIP-SCREEN SILENT UNDERLINE-SPECIAL auto-buffers buffers chop-long-lines clear-screen color dumb file-size follow-name force help hilite-search hilite-unread ignore-case incsearch jump-target lesskey-file line-num-width line-numbers log-file long-prompt max-back-scroll max-forw-scroll mouse no-histdups no-init no-keypad no-lessopen pattern prompt quiet quit-at-eof quit-if-one-screen quit-on-intr quotes raw-control-chars rscroll save-marks search-skip-screen shift silent squeeze-blank-lines status-col-width status-column tabs tag tag-file tilde underline-special use-backslash use-color version wheel-lines window',
  basename: 'help multiple suffix version zero',
  dirname: 'help version zero',
  realpath:
    'canonicalize-existing canonicalize-missing help logical no-symlinks physical quiet relative-base relative-to strip version zero',
  readlink:
    'canonicalize canonicalize-existing canonicalize-missing help no-newline quiet silent verbose version zero',
  md5sum: 'binary check help ignore-missing quiet status strict tag text version warn zero',
  sha1sum: 'binary check help ignore-missing quiet status strict tag text version warn zero',
  sha256sum: 'binary check help ignore-missing quiet status strict tag text version warn zero',
  sha512sum: 'binary check help ignore-missing quiet status strict tag text version warn zero',
  column:
    'fillrows help json keep-empty-lines output-separator output-width separator table table-columns table-columns-limit table-header-repeat table-hide table-name table-noextreme table-noheadings table-order table-right table-truncate table-wrap tree tree-id tree-parent version',
  nl: 'body-numbering footer-numbering header-numbering help join-blank-lines line-increment no-renumber number-format number-separator number-width section-delimiter starting-line-number version',
  comm: 'check-order help nocheck-order output-delimiter total version zero-terminated',
  join: 'check-order header help ignore-case nocheck-order version zero-terminated',
  paste: 'delimiters help serial version zero-terminated',
  fold: 'bytes help spaces version width',
  expand: 'help initial tabs version',
  od: 'address-radix endian format help output-duplicates read-bytes skip-bytes strings traditional version width',
  strings:
    'all bytes data encoding help include-all-whitespace output-separator print-file-name radix target unicode version',
  sed: 'debug expression file follow-symlinks help in-place line-length null-data posix quiet regexp-extended sandbox separate silent unbuffered version',
  df: 'all block-size exclude-type help human-readable inodes local no-sync output portability print-type si sync total type version',
  date: 'date debug file help iso-8601 reference resolution rfc-3339 rfc-email set universal utc version',
  uname:
    'all hardware-platform help kernel-name kernel-release kernel-version machine nodename operating-system processor version',
  id: 'context group groups help name real user version zero',
  env: 'block-signal chdir debug default-signal help ignore-environment ignore-signal list-signal-handling null split-string unset version',
  free: 'bytes committed count gibi giga help human kibi kilo lohi mebi mega pebi peta seconds si tebi tera total version wide',
  lsblk:
    'all ascii bytes dedup discard exclude fs help include inverse json list merge nodeps noempty noheadings output output-all pairs paths perms raw scsi shell sort sysroot topology tree version width zoned',
  lscpu:
    'all bytes caches extended help hex json offline online output-all parse physical sysroot version',
  tar: 'absolute-names acls add-file after-date anchored append atime-preserve auto-compress backup block-number blocking-factor bzip2 catenate check-device check-links checkpoint checkpoint-action clamp-mtime compare compress concatenate confirmation create delay-directory-restore delete dereference diff directory exclude exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-from exclude-ignore exclude-ignore-recursive exclude-tag exclude-tag-all exclude-tag-under exclude-vcs exclude-vcs-ignores extract file files-from force-local format full-time get group group-map gunzip gzip hard-dereference help hole-detection ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental index-file info-script interactive keep-directory-symlink keep-newer-files keep-old-files label level list listed-incremental lzip lzma lzop mode mtime multi-volume new-volume-script newer newer-mtime no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore no-ignore-case no-ignore-command-error no-null no-overwrite-dir no-quote-chars no-recursion no-same-owner no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from no-wildcards no-wildcards-match-slash no-xattrs null numeric-owner occurrence old-archive one-file-system one-top-level overwrite overwrite-dir owner owner-map pax-option portability posix preserve-order preserve-permissions quote-chars quoting-style read-full-records record-size recursion recursive-unlink remove-files restrict rmt-command rsh-command same-order same-owner same-permissions seek selinux show-defaults show-omitted-dirs show-snapshot-field-ranges show-stored-names show-transformed-names skip-old-files sort sparse sparse-version starting-file strip-components suffix tape-length test-label to-command to-stdout totals touch transform uncompress ungzip unlink-first unquote update usage use-compress-program utc verbatim-files-from verbose verify version volno-file warning wildcards wildcards-match-slash xattrs xattrs-exclude xattrs-include xform xz zstd',
  dmesg:
    'buffer-size clear color console-level console-off console-on ctime decode facility file follow follow-new force-prefix help human json kernel level noescape nopager notime raw read-clear reltime show-delta since syslog time-format until userspace version',
  journalctl:
    'after-cursor all boot case-sensitive catalog cursor cursor-file directory disk-usage dmesg dump-catalog facility field fields file flush follow force grep header help identifier image interval lines list-boots list-catalog machine merge namespace no-full no-hostname no-pager no-tail output output-fields pager-end priority quiet relinquish-var reverse root rotate setup-keys show-cursor since smart-relinquish-var sync system unit until update-catalog user user-unit utc vacuum-files vacuum-size vacuum-time verify verify-key version',
  systemctl:
    'all boot-loader-entry boot-loader-menu check-inhibitors dry-run failed firmware-setup force full global help host image job-mode kill-whom legend lines machine marked mkdir no-ask-password no-block no-pager no-reload no-wall now output plain preset-mode property quiet read-only recursive reverse root runtime show-transaction show-types signal state system timestamp type user value version wait what with-dependencies',
  pgrep:
    'cgroup count delimiter euid exact full group help ignore-ancestors ignore-case inverse lightweight list-full list-name logpidfile newest ns nslist older oldest parent pgroup pidfile runstates session terminal uid version',
  killall:
    'context exact ignore-case interactive list ns older-than process-group quiet regexp signal user verbose version wait younger-than',
  hostname:
    'alias all-fqdns all-ip-addresses boot domain file fqdn help ip-address long nis short version yp',
  ss: 'all bpf cgroup context contexts dccp diag events extended family filter help inet-sockopt info ipv4 ipv6 kill listening memory mptcp net no-header numeric oneline options packet processes query raw resolve sctp socket summary tcp threads tipc tipcinfo tos udp unix version vsock xdp',
  netstat:
    'all ax25 cache context continuous extend fib groups help interfaces ipx listening masquerade netrom numeric numeric-hosts numeric-ports numeric-users programs raw route sctp statistics symbolic tcp timers udp udplite unix verbose version wide',
  vmstat:
    'active disk disk-sum forks help no-first one-header partition slabs stats timestamp unit version wide',
  rm: 'dir force help interactive no-preserve-root one-file-system preserve-root recursive verbose version',
  shred: 'exact force help iterations random-source remove size verbose version zero',
  chmod:
    'changes help no-preserve-root preserve-root quiet recursive reference silent verbose version',
  chown:
    'changes dereference from help no-dereference no-preserve-root preserve-root quiet recursive reference silent verbose version',
  chgrp:
    'changes dereference help no-dereference no-preserve-root preserve-root quiet recursive reference silent verbose version',
  mv: 'backup context force help interactive no-clobber no-target-directory strip-trailing-slashes suffix target-directory update verbose version',
  cp: 'archive attributes-only backup context copy-contents dereference force help interactive link no-clobber no-dereference no-preserve no-target-directory one-file-system parents preserve recursive reflink remove-destination sparse strip-trailing-slashes suffix symbolic-link target-directory update verbose version',
  truncate: 'help io-blocks no-create reference size version',
  rmdir: 'help ignore-fail-on-non-empty parents verbose version',
  ln: 'backup directory force help interactive logical no-dereference no-target-directory physical relative suffix symbolic target-directory verbose version',
  xargs:
    'arg-file delimiter eof exit help interactive max-args max-chars max-lines max-procs no-run-if-empty null open-tty process-slot-var replace show-limits verbose version',
};
