// Moved to main/install/claude-desktop.ts (a domain module); kept for the existing importers.
export * from '../install/claude-desktop.js';
