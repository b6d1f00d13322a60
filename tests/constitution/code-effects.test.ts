// Inline code runs without a card only read-only; code whose text says it writes, deletes, runs
// programs or connects asks instead. Reading code must not be mistaken for any of these.
import { describe, expect, it } from 'vitest';
import { inlineCodeChanges } from '../../constitution/code-effects.ts';

describe('what inline code says it does', () => {
  it('finds writes, deletions, programs and connections in the common interpreters', () => {
    for (const [family, code] of [
      ['python', "open('out.txt', 'w').write('x')"],
      ['python', "open(p, mode='a+')"],
      ['python', "from pathlib import Path; Path('x').write_text('y')"],
      ['python', "import os; os.remove('a')"],
      ['python', "import shutil; shutil.copy('a', 'b')"],
      ['python', "import os; os.system('ls')"],
      ['python', "import subprocess; subprocess.run(['ls'])"],
      ['python', "import urllib.request; urllib.request.urlopen('https://x')"],
      ['python', 'import socket; socket.socket()'],
      ['node', "require('fs').writeFileSync('a', 'b')"],
      ['node', "require('child_process').execSync('ls')"],
      ['node', "require('https').get('https://x')"],
      ['node', "fetch('https://x')"],
      ['node', "require('fs').rmSync('dir', { recursive: true })"],
      ['perl', 'open(my $f, ">", "out.txt")'],
      ['perl', 'unlink "a.txt"'],
      ['perl', 'system("ls")'],
      ['perl', 'print `ls`'],
      ['ruby', 'File.write("a", "b")'],
      ['ruby', 'require "fileutils"; FileUtils.rm_rf("x")'],
    ]) {
      expect(inlineCodeChanges(code ?? '', family ?? ''), code).not.toBeNull();
    }
  });

  it('lets code that only reads and prints through', () => {
    for (const [family, code] of [
      ['python', "import json; print(json.load(open('package.json'))['version'])"],
      ['python', "print(open('a.txt', 'r').read().replace('a', 'b'))"],
      ['python', 'import platform; print(platform.system())'],
      ['python', "import sys; sys.stdout.write('hi')"],
      ['python', 'import os; print(sorted(os.listdir(".")))'],
      ['node', "console.log(require('./src/config.js'))"],
      ['node', 'console.log(`${process.version}`)'],
      ['node', "console.log(/a(b)/.exec('ab')[1])"],
      ['node', "console.log(JSON.parse(require('fs').readFileSync('package.json', 'utf8')).name)"],
      ['perl', 'print if /TODO/'],
      ['ruby', 'require "json"; p JSON.parse(File.read("a.json"))'],
    ]) {
      expect(inlineCodeChanges(code ?? '', family ?? ''), code).toBeNull();
    }
  });
});
