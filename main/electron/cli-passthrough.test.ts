import { describe, expect, it } from 'vitest';
import { cliArgs } from './cli-passthrough.js';

describe('--cli passthrough', () => {
  it('takes everything after --cli as the CLI arguments', () => {
    expect(cliArgs(['/tmp/.mount_x/lorecraft-desktop', '--cli', 'mcp', '--vault', '/w/T', '--read-write'])).toEqual(['mcp', '--vault', '/w/T', '--read-write']);
    expect(cliArgs(['/opt/Lorecraft/lorecraft-desktop', '--no-sandbox', '--cli'])).toEqual([]);
  });
  it('is null for a normal launch', () => {
    expect(cliArgs(['/opt/Lorecraft/lorecraft-desktop', '--vault', '/w/T'])).toBeNull();
  });
});
