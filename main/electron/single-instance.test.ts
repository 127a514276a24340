import { describe, expect, it } from 'vitest';
import { launchData, vaultToOpen } from './single-instance.js';

describe('single instance', () => {
  it('a second launch on the same vault only focuses; another vault is opened; none given focuses', () => {
    expect(launchData('worlds/T', '/home/gm')).toEqual({ vault: '/home/gm/worlds/T' });
    expect(launchData(undefined)).toEqual({ vault: null });
    expect(vaultToOpen({ vault: '/home/gm/worlds/T' }, '/home/gm/worlds/T')).toBeNull();
    expect(vaultToOpen({ vault: '/home/gm/worlds/T/' }, '/home/gm/worlds/T')).toBeNull();
    expect(vaultToOpen({ vault: '/home/gm/worlds/G' }, '/home/gm/worlds/T')).toBe('/home/gm/worlds/G');
    expect(vaultToOpen({ vault: '/home/gm/worlds/G' }, null)).toBe('/home/gm/worlds/G');
    expect(vaultToOpen({ vault: null }, '/x')).toBeNull();
    expect(vaultToOpen(undefined, '/x')).toBeNull();
    expect(vaultToOpen({ vault: 42 }, '/x')).toBeNull();
  });
});
