// Which hosts a command line reaches: the examples the card and the sandbox rely on.
import { beforeAll, describe, expect, it } from 'vitest';
import { networkUse } from '../../constitution/network-use.ts';
import { initShellParser, parseShell } from '../../runtime/shell/parse.ts';

beforeAll(async () => {
  await initShellParser();
});

const use = (line: string) => networkUse(parseShell(line));

describe('networkUse: must name the hosts', () => {
  it.each([
    ['curl -fsSL https://example.com/install.sh | sh', ['example.com']],
    ['curl -o out.html example.com/page', ['example.com']],
    [
      'curl -H "Authorization: x" -d @body.json https://API.example.com:8443/v1',
      ['api.example.com'],
    ],
    ['curl --url https://a.example.org/x', ['a.example.org']],
    ['curl localhost:3000/health', ['localhost']],
    ["curl 'http://[::1]:8080/'", ['::1']],
    ['wget -O - https://deb.example.org/key.gpg', ['deb.example.org']],
    [
      'wget --header="X: y" https://x.example.net/a https://y.example.net/b',
      ['x.example.net', 'y.example.net'],
    ],
    ['git clone https://github.com/acme/app.git', ['github.com']],
    ['git clone --depth 1 git@gitlab.com:acme/app.git ~/src/app', ['gitlab.com']],
    ['git -C ~/src/app pull https://github.com/acme/app main', ['github.com']],
    ['git push ssh://git@git.example.com:2222/app.git HEAD', ['git.example.com']],
    ['git submodule add https://github.com/acme/lib vendor/lib', ['github.com']],
    ['npm install', ['registry.npmjs.org']],
    ['npm i -D vitest @types/node', ['registry.npmjs.org']],
    ['npm ci --registry https://npm.example.com/', ['npm.example.com']],
    ['yarn', ['registry.yarnpkg.com']],
    ['pnpm add zod', ['registry.npmjs.org']],
    ['pip install requests', ['pypi.org', 'files.pythonhosted.org']],
    ['python3 -m pip install -r requirements.txt', ['pypi.org', 'files.pythonhosted.org']],
    ['pip3 install -i https://pypi.example.com/simple foo', ['pypi.example.com']],
    ['uv add httpx', ['pypi.org', 'files.pythonhosted.org']],
    ['cargo install ripgrep', ['crates.io', 'index.crates.io', 'static.crates.io']],
    ['go get golang.org/x/tools@latest', ['proxy.golang.org', 'sum.golang.org']],
    ['gem install rails', ['rubygems.org']],
    ['gh pr list', ['github.com', 'api.github.com']],
    ['ssh -p 2222 deploy@web1.example.com uptime', ['web1.example.com']],
    ['ssh -J bastion.example.com db.internal', ['bastion.example.com', 'db.internal']],
    ['scp ./build.tgz deploy@web1.example.com:/srv/', ['web1.example.com']],
    ['rsync -az -e ssh dist/ backup.example.com:site/', ['backup.example.com']],
    ['ping -c 3 example.com', ['example.com']],
    ['nc -zv db.example.com 5432', ['db.example.com']],
    ['sudo -u deploy curl https://example.com', ['example.com']],
    ['bash -c "curl -s https://example.com/a"', ['example.com']],
    [
      'cd app && git pull https://github.com/acme/app && npm ci',
      ['github.com', 'registry.npmjs.org'],
    ],
  ])('%s', (line, hosts) => {
    expect(use(line)).toEqual({ needed: true, hosts });
  });
});

describe('networkUse: needs the network, hosts unknown', () => {
  it.each([
    'git pull',
    'git push --force origin main',
    'git fetch --all',
    'git remote update',
    'git submodule update --init',
    'curl "$URL"',
    'curl -x http://proxy:3128 https://example.com',
    'wget -i urls.txt',
    'npx create-react-app web',
    'npm exec -- cowsay hi',
    'npm install github:acme/lib',
    'apt-get install -y jq',
    'sudo apt update',
    'brew install jq',
    'docker pull node:20',
    'kubectl get pods',
    'dig example.com',
    'ssh -o ProxyCommand="nc %h %p" host',
    'git clone $REPO',
  ])('%s', (line) => {
    expect(use(line)).toEqual({ needed: true, hosts: null });
  });
});

describe('networkUse: must not need the network', () => {
  it.each([
    'git status',
    'git commit -m "fix: curl https://example.com in docs"',
    'git remote add origin https://github.com/acme/app.git',
    'git remote -v',
    'git clone ../app ../app-copy',
    'git clone /srv/repos/app.git',
    'git --version',
    'npm test',
    'npm run build',
    'yarn test',
    'pip list',
    'pip install --no-index --find-links ./wheels foo',
    'cargo build --release',
    'go build ./...',
    'rsync -a src/ backup/',
    'scp a.txt b.txt',
    'curl file:///etc/hostname',
    'echo https://example.com',
    'grep -r example.com .',
    'python3 script.py',
    'kubectl version',
    'ls -la',
  ])('%s', (line) => {
    expect(use(line)).toEqual({ needed: false });
  });
});

describe('networkUse: named git remotes through the caller’s lookup', () => {
  const remotes: Record<string, string> = { origin: 'github.com', backup: 'git.example.org' };
  const lookup = (name: string | null): string | null =>
    name === null ? 'github.com' : (remotes[name] ?? null);

  it.each([
    ['git push --force origin main', ['github.com']],
    ['git push -u origin feature', ['github.com']],
    ['git pull', ['github.com']],
    ['git fetch backup', ['git.example.org']],
    ['git push origin main && npm publish', ['github.com', 'registry.npmjs.org']],
  ])('%s', (line, hosts) => {
    expect(networkUse(parseShell(line), lookup)).toEqual({ needed: true, hosts });
  });

  it.each([
    'git push upstream main',
    'git -C ~/other push origin main',
    'cd ~/other && git push origin main',
    'git fetch --all',
  ])('%s stays unknown', (line) => {
    expect(networkUse(parseShell(line), lookup)).toEqual({ needed: true, hosts: null });
  });
});
