// The planner benchmark runs end to end in its own throwaway HOME and reports its figures
// (no timing is asserted: the numbers are printed by `custode bench`, not judged here).
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { benchPlanner } from '../../runtime/bench/planner.ts';
import { stateDir } from '../../runtime/paths.ts';

describe('benchPlanner', () => {
  it('measures single-chat and 50-chat overhead without touching the real state dir', async () => {
    const section = await benchPlanner();
    expect(section.title).toContain('Planner');
    expect(section.lines).toHaveLength(4);
    expect(section.lines[0]).toMatch(/per step median \d+\.\d{3} ms/);
    expect(section.lines[2]).toMatch(/^50 concurrent chats/);
    expect(section.lines[3]).toMatch(/: (MET|NOT MET)$/);
    expect(await readdir(stateDir()).catch(() => [])).toEqual([]);
  }, 60_000);
});
