/**
 * The Electron main bundle's entry: `--cli …` runs the packaged CLI without a
 * window (cli-passthrough.ts); anything else starts the app (main.ts).
 */
import { app } from 'electron';
import { cliArgs, runCliPassthrough } from './cli-passthrough.js';

const cli = cliArgs(process.argv);
if (cli) runCliPassthrough(cli, (code) => app.exit(code));
else void import('./main.js');
