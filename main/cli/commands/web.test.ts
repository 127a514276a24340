import { describe, expect, it } from 'vitest';
import { run } from './web.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('lorecraft web (usage)', () => {
  it('rejects a bad port, an unknown option and a stray argument with exit 2 and the usage', async () => {
    for (const argv of [['--port', 'abc'], ['--port', '70000'], ['--host', '0.0.0.0'], ['somewhere']]) {
      const c = io();
      expect(await run(argv, c.io)).toBe(2);
      expect(c.err.join('\n')).toMatch(/usage: lorecraft web/);
    }
  });

  it('names the missing renderer build instead of crashing', async () => {
    const c = io();
    const code = await run(['--vault', 'resources/sample-world', '--renderer', '/nonexistent/renderer'], c.io);
    expect(code).toBe(1);
    expect(c.err.join('\n')).toContain('the built renderer is missing at /nonexistent/renderer');
  });

  it('prints its usage with --help', async () => {
    const c = io();
    expect(await run(['--help'], c.io)).toBe(0);
    expect(c.out[0]).toContain('--vault DIR');
  });
});
