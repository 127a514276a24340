/**
 * `lorecraft export --vault DIR --format site|lorebook|json|mermaid|dot
 *   --audience gm|players [--layer L --session N] [--focus NAME --depth D] --out PATH`
 * The world as it stood at a session, for the GM or for the players (the
 * visibility model: docs/vault-format.md). Reads the notes (files-only model),
 * so it also works while the app holds the database. `--out -` prints a
 * one-file format to stdout. Exit: 0 ok, 1 not found / refused, 2 usage.
 */
import { parseArgs } from 'node:util';
import { CoreError, EXPORT_FORMATS, exportOfFiles, writeExport, type ExportFormat } from '../../core/index.js';
import type { CliIo } from '../io.js';

const USAGE = 'usage: lorecraft export --vault DIR --format site|lorebook|json|mermaid|dot --audience gm|players [--layer L] [--session N] [--focus NAME] [--depth D] --out PATH';

export async function run(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv, allowPositionals: false, strict: true,
      options: {
        vault: { type: 'string' }, format: { type: 'string' }, audience: { type: 'string' }, layer: { type: 'string' },
        session: { type: 'string' }, focus: { type: 'string' }, depth: { type: 'string' }, out: { type: 'string' },
        config: { type: 'string' }, schema: { type: 'string' }, help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    io.err(`lorecraft export: ${err instanceof Error ? err.message : String(err)}`);
    io.err(USAGE);
    return 2;
  }
  if (values.help) { io.out(USAGE); return 0; }
  const errors: string[] = [];
  const format = values.format as string | undefined;
  if (!format) errors.push('--format is required');
  else if (!(EXPORT_FORMATS as readonly string[]).includes(format)) errors.push(`--format must be one of ${EXPORT_FORMATS.join(', ')} (got '${format}')`);
  const audience = values.audience as string | undefined;
  if (!audience) errors.push('--audience is required (gm or players)');
  else if (audience !== 'gm' && audience !== 'players') errors.push(`--audience must be gm or players (got '${audience}')`);
  if (!values.out) errors.push('--out is required');
  const num = (flag: string, min: number): number | undefined => {
    const v = values[flag];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n) || n < min) { errors.push(`--${flag} must be a number ≥ ${min} (got '${String(v)}')`); return undefined; }
    return n;
  };
  const session = num('session', 0);
  const depth = num('depth', 1);
  if (values.out === '-' && format === 'site') errors.push('--format site writes a folder: give --out a folder, not -');
  if (errors.length) {
    for (const e of errors) io.err(`lorecraft export: ${e}`);
    io.err(USAGE);
    return 2;
  }
  try {
    const result = await exportOfFiles(typeof values.vault === 'string' ? values.vault : process.cwd(), {
      ...(typeof values.config === 'string' ? { configPath: values.config } : {}),
      ...(typeof values.schema === 'string' ? { schemaPath: values.schema } : {}),
    }, {
      format: format as ExportFormat, audience: audience as 'gm' | 'players',
      ...(typeof values.layer === 'string' ? { layer: values.layer } : {}),
      ...(session !== undefined ? { session } : {}),
      ...(typeof values.focus === 'string' ? { focus: values.focus } : {}),
      ...(depth !== undefined ? { depth } : {}),
    });
    if (values.out === '-') { io.out(result.files[0]!.content.replace(/\n$/, '')); return 0; }
    const written = await writeExport(result, String(values.out));
    io.err(`exported ${result.entities} entities (${result.audience}, layer ${result.layer}${result.session !== null ? `, session ${result.session}` : ''}) as ${result.format}: ${written.length === 1 ? written[0] : `${written.length} files in ${String(values.out)}`}`);
    return 0;
  } catch (err) {
    if (err instanceof CoreError) { io.err(`lorecraft export: ${err.message}`); return 1; }
    throw err;
  }
}
