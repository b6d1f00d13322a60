import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { executorRegistry, executors } from '../../executors/index.ts';

describe('executor registry', () => {
  it('lists the eleven tools once each, by name', () => {
    expect(executors.map((e) => e.name).sort()).toEqual(
      [
        'fs_delete',
        'fs_edit',
        'fs_glob',
        'fs_grep',
        'fs_list',
        'fs_mkdir',
        'fs_multi_edit',
        'fs_read',
        'fs_write',
        'shell_exec',
        'web_fetch',
      ].sort(),
    );
    expect(executorRegistry.size).toBe(executors.length);
    expect(executorRegistry.get('__proto__')).toBeUndefined();
    expect(executorRegistry.get('constructor')).toBeUndefined();
  });

  it('marks state-mutating tools critical and spares only read-only ones the LLM judge', () => {
    const critical = executors
      .filter((e) => e.critical)
      .map((e) => e.name)
      .sort();
    expect(critical).toEqual([
      'fs_delete',
      'fs_edit',
      'fs_mkdir',
      'fs_multi_edit',
      'fs_write',
      'shell_exec',
    ]);
    for (const executor of executors) {
      expect(executor.skipJudge, executor.name).toBe(executor.capabilities.access === 'read');
    }
    expect(executorRegistry.get('web_fetch')).toMatchObject({
      critical: false,
      skipJudge: false,
      capabilities: { access: 'network', urlArg: 'url' },
    });
    expect(executorRegistry.get('shell_exec')?.capabilities).toEqual({
      access: 'exec',
      pathArgs: ['cwd'],
      commandArg: 'command',
    });
  });

  it('declares path args that exist in each schema, and strict schemas the model can read', () => {
    for (const executor of executors) {
      const schema = z.toJSONSchema(executor.args) as {
        properties: Record<string, unknown>;
        additionalProperties: unknown;
      };
      expect(schema.additionalProperties, executor.name).toBe(false);
      for (const name of executor.capabilities.pathArgs) {
        expect(Object.hasOwn(schema.properties, name), `${executor.name}.${name}`).toBe(true);
      }
      expect(executor.description.length).toBeGreaterThan(20);
    }
  });
});
