#!/usr/bin/env node
// `npm run dist:check`: build the unpacked desktop app for Linux (electron-builder
// --dir, electron-builder.yml) and check it as users get it. Prints ONE JSON line
// of findings on stdout (progress on stderr); exits 1 on any failure.
//
// The Electron runtime: node_modules/electron's binary when it was fetched
// (`npm start` does), else a STAND-IN (a script that, in Node mode, runs this
// Node; it has no GUI) — the JSON says which ("runtime"). Everything checked is
// the package's own content, which does not depend on the runtime.
//
// Checks: electronVersion (electron-builder.yml) = package.json's electron; every
// module the main bundle, the preload, the CLI and the renderer load (found by
// parsing the bundles with acorn: import/export-from, import(), require()) is a
// Node builtin, 'electron' (main/preload only), or resolves inside app.asar /
// app.asar.unpacked (a guarded require in try/catch that does not resolve is listed
// as optional); Kùzu's addon is unpacked and loads; the sample world is in
// resources; no tests, source maps or packages the bundles do not load; the
// renderer's CSP meta tag; the size against a budget. Then the packaged CLI,
// extracted from the asar, runs under plain Node as `mcp` on a copy of the sample
// world (real MCP SDK client: tools/list + get_entity), and the Claude Desktop
// entry the packaged CLI prints (`connect claude --print`) is launched as Claude
// Desktop launches it (env -i with the entry's env, cwd /): tools/list.
//
// Usage: node scripts/dist-check.mjs [--no-build] [--keep]
import { spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as acorn from 'acorn';
import asar from '@electron/asar';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import YAML from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const args = new Set(process.argv.slice(2));
const started = Date.now();
/** app.asar + app.asar.unpacked + sample world (the runtime excluded: it is Electron's) */
const APP_BUDGET_MB = 60;
/** the whole unpacked app with a real Electron runtime */
const TOTAL_BUDGET_MB = 450;

const failures = [];
const report = { ok: false, runtime: null, electron_version: null };
const fail = (msg) => { failures.push(msg); console.error(`dist:check: FAIL ${msg}`); };
const log = (msg) => console.error(`dist:check: ${msg}`);
const work = mkdtempSync(join(tmpdir(), 'lorecraft-dist-check-'));

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}:\n${(r.stderr || '').slice(-3000)}${(r.stdout || '').slice(-2000)}`);
  return r.stdout;
}

function duBytes(p) {
  const st = statSync(p);
  if (!st.isDirectory()) return st.size;
  return readdirSync(p).reduce((n, f) => n + duBytes(join(p, f)), 0);
}

// ---- the runtime: the real binary when present, else a stand-in -------------
function electronRuntime() {
  try {
    const bin = require('electron');
    if (typeof bin === 'string' && existsSync(bin)) return { kind: 'electron', dist: dirname(bin) };
  } catch { /* not fetched */ }
  const dist = join(work, 'stand-in-electron');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  const sh = `#!/bin/sh
# STAND-IN for the Electron runtime (dist:check on a machine that cannot download
# Electron): in Node mode it runs Node, as Electron would; it has no GUI.
if [ -n "$ELECTRON_RUN_AS_NODE" ]; then exec ${JSON.stringify(process.execPath)} "$@"; fi
echo "stand-in Electron runtime (dist:check): no GUI" >&2
exit 1
`;
  writeFileSync(join(dist, 'electron'), sh, { mode: 0o755 });
  writeFileSync(join(dist, 'LICENSE'), 'stand-in: no Electron binary here\n');
  return { kind: 'stand-in', dist };
}

// ---- bundle imports, parsed --------------------------------------------------
function importsOf(file, sourceType) {
  const code = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const ast = acorn.parse(code, { ecmaVersion: 'latest', sourceType, allowHashBang: true, allowReturnOutsideFunction: true });
  const found = [];
  const walk = (node, guarded) => {
    if (!node || typeof node.type !== 'string') return;
    const g = guarded || node.type === 'TryStatement';
    const lit = (n) => (n && n.type === 'Literal' && typeof n.value === 'string' ? n.value : null);
    if ((node.type === 'ImportDeclaration' || node.type === 'ExportAllDeclaration' || node.type === 'ExportNamedDeclaration') && lit(node.source)) found.push({ spec: node.source.value, guarded: false });
    if (node.type === 'ImportExpression' && lit(node.source)) found.push({ spec: node.source.value, guarded: g });
    if (node.type === 'CallExpression' && node.callee.type === 'Identifier' && /^(?:__)?require\d*$/.test(node.callee.name) && node.arguments.length === 1 && lit(node.arguments[0])) {
      found.push({ spec: node.arguments[0].value, guarded: g });
    }
    for (const key of Object.keys(node)) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const v = node[key];
      if (Array.isArray(v)) for (const c of v) walk(c, g);
      else if (v && typeof v === 'object') walk(v, g);
    }
  };
  walk(ast, false);
  return found;
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const pkgOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Checks a Node-side bundle's imports against the extracted package; returns the packages it loads. */
/** packages only development needs (devDependencies, and tsx by name): never imported by a shipped bundle, never shipped */
const devOnly = (pkg, name) => name === 'tsx' || Boolean(pkg.devDependencies?.[name]);

function checkNodeBundle(name, file, extracted, { electronOk, sourceType, pkg }) {
  const loaded = new Set();
  const req = createRequire(file);
  const out = { imports: 0, optional_missing: [] };
  for (const { spec, guarded } of importsOf(file, sourceType)) {
    if (builtins.has(spec)) continue;
    out.imports++;
    // even a guarded import (try/catch) of a dev-only package: the package would behave differently installed
    if (!spec.startsWith('.') && devOnly(pkg, pkgOf(spec))) { fail(`${name}: imports the dev-only package '${pkgOf(spec)}'`); continue; }
    if (spec === 'electron') { if (!electronOk) fail(`${name}: imports electron, which Node mode does not have`); continue; }
    let target = null;
    try { target = req.resolve(spec); } catch { /* below */ }
    if (!target) {
      if (guarded) out.optional_missing.push(spec); else fail(`${name}: '${spec}' does not resolve inside the package`);
      continue;
    }
    if (!resolve(target).startsWith(extracted + sep)) fail(`${name}: '${spec}' resolves outside the package (${target})`);
    if (!spec.startsWith('.')) loaded.add(pkgOf(spec));
  }
  return { ...out, packages: [...loaded].sort() };
}

function checkRenderer(extracted) {
  const dir = join(extracted, 'dist', 'renderer');
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const csp = /<meta[^>]+http-equiv="Content-Security-Policy"[^>]+content="([^"]+)"/.exec(html)?.[1]?.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? null;
  if (!csp) fail('renderer: index.html has no Content-Security-Policy meta tag');
  else if (!/script-src 'self'(;|$)/.test(csp) || /script-src[^;]*unsafe-inline/.test(csp)) fail(`renderer: the CSP allows more than 'self' scripts: ${csp}`);
  const seen = new Set();
  const queue = [...html.matchAll(/(?:src|href)="(\.\/[^"]+)"/g)].map((m) => resolve(dir, m[1]));
  let files = 0;
  while (queue.length) {
    const f = queue.shift();
    if (seen.has(f)) continue;
    seen.add(f);
    if (!existsSync(f)) { fail(`renderer: ${relative(extracted, f)} is referenced but not in the package`); continue; }
    files++;
    if (!f.endsWith('.js')) continue;
    for (const { spec } of importsOf(f, 'module')) {
      if (!spec.startsWith('.')) fail(`renderer: ${relative(extracted, f)} imports '${spec}' (a bare module a browser cannot load)`);
      else queue.push(resolve(dirname(f), spec));
    }
  }
  return { files, csp: Boolean(csp) };
}

async function mcpSession(label, params, entityName) {
  let stderr = '';
  const transport = new StdioClientTransport({ ...params, stderr: 'pipe' });
  transport.stderr?.on('data', (d) => { stderr += d.toString(); });
  const client = new Client({ name: `dist-check-${label}`, version: '1.0.0' });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const out = { tools: tools.length };
    if (entityName) {
      const r = await client.callTool({ name: 'get_entity', arguments: { name: entityName } });
      const entity = r.structuredContent?.entity;
      if (r.isError || !entity) fail(`${label}: get_entity ${entityName} answered ${JSON.stringify(r.content).slice(0, 300)}`);
      else out.get_entity = `${entity.name ?? entityName} (${entity.type})`;
    }
    if (!tools.includes('get_entity')) fail(`${label}: tools/list has no get_entity`);
    return out;
  } catch (e) {
    fail(`${label}: ${e.message}; server stderr: ${stderr.slice(-1500)}`);
    return null;
  } finally {
    await client.close().catch(() => {});
  }
}

try {
  // ---- 1. versions, build, package ---------------------------------------------
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const cfg = YAML.parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const wanted = pkg.optionalDependencies?.electron ?? pkg.devDependencies?.electron;
  report.electron_version = cfg.electronVersion;
  if (cfg.electronVersion !== wanted) fail(`electron-builder.yml electronVersion ${cfg.electronVersion} != package.json electron ${wanted}`);

  if (!args.has('--no-build')) { log('building (npm run build)'); run('npm', ['run', '--silent', 'build']); }
  const runtime = electronRuntime();
  report.runtime = runtime.kind;
  if (runtime.kind === 'stand-in') log('no Electron binary here: packaging with a STAND-IN runtime (Node in Node mode, no GUI); the package content checked is the same');
  const outDir = join(work, 'out');
  log('electron-builder --linux dir');
  run(process.execPath, [join(root, 'node_modules', 'electron-builder', 'cli.js'), '--linux', 'dir', '--config', 'electron-builder.yml', '--publish', 'never',
    `-c.electronDist=${runtime.dist}`, `-c.directories.output=${outDir}`]);
  const app = join(outDir, 'linux-unpacked');
  const resources = join(app, 'resources');
  const archive = join(resources, 'app.asar');
  const exe = join(app, cfg.linux.executableName);
  if (!existsSync(exe)) fail(`no executable ${cfg.linux.executableName} in the package`);

  // ---- 2. content --------------------------------------------------------------
  const listing = asar.listPackage(archive, { isPack: false }).map((p) => p.replace(/^[\\/]/, '').split(sep).join('/'));
  const unpackedDir = `${archive}.unpacked`;
  report.asar_files = listing.length;
  const extracted = join(work, 'extracted');
  asar.extractAll(archive, extracted); // unpacked files included (read from app.asar.unpacked)

  const forbidden = listing.filter((p) => /(^|\/)(__tests__|test|tests|e2e)\//.test(p) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(p) || /\.map$/.test(p)
    || /node_modules\/kuzu\/(kuzu-source|prebuilt)\//.test(p) || /\.ts$/.test(p) && !p.endsWith('.d.ts'));
  for (const f of forbidden.slice(0, 10)) fail(`shipped but not for users: ${f}`);
  report.forbidden = forbidden.length;

  const bundles = {
    main: checkNodeBundle('main', join(extracted, 'dist/main/electron/main.cjs'), extracted, { electronOk: true, sourceType: 'script', pkg }),
    preload: checkNodeBundle('preload', join(extracted, 'dist/preload/preload.cjs'), extracted, { electronOk: true, sourceType: 'script', pkg }),
    cli: checkNodeBundle('cli', join(extracted, 'dist/main/cli.mjs'), extracted, { electronOk: false, sourceType: 'module', pkg }),
  };
  report.bundles = Object.fromEntries(Object.entries(bundles).map(([k, v]) => [k, { imports: v.imports, packages: v.packages, optional_missing: v.optional_missing }]));
  report.renderer = checkRenderer(extracted);

  // every package shipped is one a bundle loads; nothing dev-only
  const shippedPkgs = [...new Set(listing.filter((p) => p.startsWith('node_modules/')).map((p) => pkgOf(p.slice('node_modules/'.length)))
    .filter((p) => p && (!p.startsWith('@') || p.includes('/'))))].sort(); // a scope's own folder is no package
  const loadedPkgs = new Set(Object.values(bundles).flatMap((b) => b.packages));
  // and what a loaded package itself loads: its dependencies and optional ones (koffi's prebuilt addon for this OS), shipped
  for (const p of [...loadedPkgs]) {
    const seen = [p];
    while (seen.length) {
      const q = seen.pop();
      let meta = null;
      try { meta = JSON.parse(readFileSync(join(extracted, 'node_modules', q, 'package.json'), 'utf8')); } catch { continue; }
      for (const d of Object.keys({ ...meta.dependencies, ...meta.optionalDependencies })) {
        if (!loadedPkgs.has(d) && existsSync(join(extracted, 'node_modules', d))) { loadedPkgs.add(d); seen.push(d); }
      }
    }
  }
  report.packages = shippedPkgs;
  for (const p of shippedPkgs) if (!loadedPkgs.has(p)) fail(`node_modules/${p} is shipped but no bundle loads it`);
  for (const p of shippedPkgs) if (devOnly(pkg, p)) fail(`dev-only package shipped: ${p}`);

  // Kùzu: the addon unpacked, and it loads from the package
  const addon = asar.statFile(archive, 'node_modules/kuzu/kuzujs.node');
  if (!addon?.unpacked || !existsSync(join(unpackedDir, 'node_modules/kuzu/kuzujs.node'))) fail('Kùzu addon is not unpacked beside app.asar');
  const cliUnpacked = asar.statFile(archive, 'dist/main/cli.mjs');
  if (!cliUnpacked?.unpacked) fail('dist/main/cli.mjs is not unpacked (the MCP entry and `lorecraft` run it as a file)');
  const loadChild = asar.statFile(archive, 'dist/main/kuzu-load-child.mjs');
  if (!loadChild?.unpacked) fail('dist/main/kuzu-load-child.mjs is not unpacked (the graph\'s load process runs it as a file in Node mode)');
  const kz = spawnSync(process.execPath, ['-e', "const k=require(process.argv[1]);const c=new k.Connection(new k.Database(':memory:'));c.query('RETURN 40+2 AS x').then(r=>r.getAll()).then(r=>{process.stdout.write(String(r[0].x))})",
    join(unpackedDir, 'node_modules', 'kuzu')], { cwd: work, encoding: 'utf8' });
  report.kuzu_loads = kz.stdout === '42';
  if (!report.kuzu_loads) fail(`Kùzu does not load from app.asar.unpacked: ${kz.stderr.slice(-800)}`);

  // the sample world
  const sample = join(resources, 'sample-world');
  const countMd = (d) => readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? (e.name === '.lorecraft' ? 0 : countMd(join(d, e.name))) : e.name.endsWith('.md') ? 1 : 0), 0);
  report.sample_world_notes = existsSync(sample) ? countMd(sample) : 0;
  if (!existsSync(join(sample, 'lorecraft.yaml')) || report.sample_world_notes !== countMd(join(root, 'resources', 'sample-world'))) fail('the sample world is missing or incomplete in resources/');
  if (existsSync(join(sample, '.lorecraft'))) fail('the sample world ships a .lorecraft database');

  // size
  const mb = (b) => Math.round(b / 1e5) / 10;
  report.app_mb = mb(duBytes(archive) + duBytes(unpackedDir) + duBytes(sample));
  report.total_mb = mb(duBytes(app));
  report.budget_mb = { app: APP_BUDGET_MB, total: TOTAL_BUDGET_MB };
  if (report.app_mb > APP_BUDGET_MB) fail(`the app is ${report.app_mb} MB, over its ${APP_BUDGET_MB} MB budget`);
  if (runtime.kind === 'electron' && report.total_mb > TOTAL_BUDGET_MB) fail(`the package is ${report.total_mb} MB, over its ${TOTAL_BUDGET_MB} MB budget`);

  // the deb's `lorecraft` command runs the packaged CLI where electron-builder installs it
  const debCli = readFileSync(join(root, 'resources', 'linux', 'lorecraft'), 'utf8');
  if (!debCli.includes(`/opt/${cfg.productName}/${cfg.linux.executableName}`) || !debCli.includes('/resources/app.asar.unpacked/dist/main/cli.mjs')) fail('resources/linux/lorecraft does not point at the packaged executable and CLI');
  else {
    // run it against this package's layout (the deb installs the app folder as /opt/<productName>)
    const local = join(work, 'lorecraft');
    writeFileSync(local, debCli.split(`/opt/${cfg.productName}/`).join(`${app}/`), { mode: 0o755 });
    const r = spawnSync('/usr/bin/env', ['-i', '/bin/sh', local, '--help'], { cwd: '/', encoding: 'utf8' });
    report.deb_command = r.status === 0 && /connect/.test(r.stdout);
    if (!report.deb_command) fail(`the deb's lorecraft command does not run the packaged CLI: exit ${r.status} ${r.stderr.slice(-500)}`);
  }

  // ---- 3. the packaged CLI, extracted, under plain Node: MCP ------------------
  const vault = join(work, 'Sample World');
  cpSync(sample, vault, { recursive: true });
  const someNote = readdirSync(join(vault, 'setting'), { recursive: true }).find((f) => String(f).endsWith('.md'));
  const entityName = someNote ? String(someNote).split(/[\\/]/).pop().replace(/\.md$/, '') : null;
  log('MCP: the extracted packaged CLI under plain Node');
  report.mcp = await mcpSession('extracted cli', { command: process.execPath, args: [join(extracted, 'dist/main/cli.mjs'), 'mcp', '--vault', vault], cwd: work, env: { PATH: '' } }, entityName);

  // ---- 4. the Claude Desktop entry the packaged CLI writes, launched as Claude Desktop would
  log('MCP: the packaged Claude Desktop entry (env -i, cwd /)');
  const script = join(unpackedDir, 'dist', 'main', 'cli.mjs');
  const printed = spawnSync('/usr/bin/env', ['-i', 'ELECTRON_RUN_AS_NODE=1', exe, script, 'connect', 'claude', '--print', '--vault', vault, '--config', join(work, 'claude.json')], { cwd: '/', encoding: 'utf8' });
  let entry = null;
  try { entry = Object.values(JSON.parse(printed.stdout))[0]; } catch { fail(`packaged 'connect claude --print' printed no entry: ${printed.stderr.slice(-800)}`); }
  if (entry) {
    report.entry = { command: relative(work, entry.command).startsWith('..') ? entry.command : relative(work, entry.command), env: entry.env ?? null, script_in_package: entry.args[0] === script };
    if (entry.env?.ELECTRON_RUN_AS_NODE !== '1') fail('the packaged entry does not set ELECTRON_RUN_AS_NODE=1');
    if (entry.args[0] !== script) fail(`the packaged entry's script is ${entry.args[0]}, not the package's ${script}`);
    if (runtime.kind === 'electron' && entry.command !== exe) fail(`the packaged entry's command is ${entry.command}, not the app executable`);
    const vars = Object.entries(entry.env ?? {}).map(([k, v]) => `${k}=${v}`);
    report.entry.mcp = await mcpSession('packaged entry', { command: '/usr/bin/env', args: ['-i', ...vars, entry.command, ...entry.args], cwd: '/' }, entityName);
  }
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
} finally {
  report.seconds = Math.round((Date.now() - started) / 100) / 10;
  report.failures = failures;
  report.ok = failures.length === 0;
  if (args.has('--keep')) report.kept = work; else rmSync(work, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(report) + '\n');
  process.exitCode = report.ok ? 0 : 1;
}
