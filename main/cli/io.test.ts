import { describe, expect, it } from 'vitest';
import { parseArgs } from './io.js';

const spec = { booleans: ['json', 'help'], strings: ['vault', 'session'] };

describe('parseArgs (node:util parseArgs underneath)', () => {
  it('reads --flag value, --flag=value, booleans, positionals and --', () => {
    expect(parseArgs(['state', 'Captain Varo', '--vault', 'v', '--session=5', '--json', '--', '--help'], spec))
      .toEqual({ flags: { vault: 'v', session: '5', json: true }, positionals: ['state', 'Captain Varo', '--help'], errors: [] });
  });
  it('keeps a single-dash word as a positional and takes a dash value for a string flag', () => {
    expect(parseArgs(['-45', '--session', '-1'], spec)).toEqual({ flags: { session: '-1' }, positionals: ['-45'], errors: [] });
  });
  it('reports unknown options and a missing value', () => {
    expect(parseArgs(['--nope', '--vault'], spec).errors).toEqual(['unknown option --nope', '--vault needs a value']);
    expect(parseArgs(['--constructor'], spec).errors).toEqual(['unknown option --constructor']);
  });
});
