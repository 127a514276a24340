import { useEffect } from 'react';
import { Canvas } from './features/canvas/Canvas.js';
import { EntityPanel } from './features/entity/EntityPanel.js';
import { ProblemsPanel } from './features/problems/ProblemsPanel.js';
import { Sidebar } from './features/entities/Sidebar.js';
import { StatusBar } from './features/statusbar/StatusBar.js';
import { TimelineBar } from './features/timeline/TimelineBar.js';
import { useApp } from './store/index.js';
import { EditorRoot } from './features/editor/EditorRoot.js';
import { ConnectClaudeButton, ConnectDialog } from './features/mcp/ConnectDialog.js';
import { SchemaSetupPanel } from './features/schema-setup/SchemaSetupPanel.js';
import { TrashButton, TrashDialogs } from './features/trash/TrashDialogs.js';
import { ViewSwitch } from './features/view/ViewSwitch.js';
import { ExportButton, ExportDialog } from './features/view/ExportDialog.js';

export function App() {
  const project = useApp((s) => s.vault?.project);
  const total = useApp((s) => s.entitiesTotal);
  const editing = useApp((s) => s.editorId !== null);
  const players = useApp((s) => s.audience === 'players');
  // the canvas changes size when the editor opens beside it (wide windows): Cytoscape re-measures on resize
  useEffect(() => { window.dispatchEvent(new Event('resize')); }, [editing]);
  return (
    <div className={`app${editing ? ' editor-open' : ''}${players ? ' players-view' : ''}`} data-testid="app-root" data-audience={players ? 'players' : 'gm'}>
      <header className="topbar">
        <span className="brand">Lorecraft</span>
        <span className="project" data-testid="project-name">{project ?? '…'}</span>
        <span className="spacer" />
        <span className="hint">{total} notes · Ctrl+K search</span>
        <ViewSwitch />
        <ExportButton />
        {!players && <TrashButton />}
        <ConnectClaudeButton />
      </header>
      <main className="body">
        <Sidebar />
        <Canvas />
        <EntityPanel />
      </main>
      <TimelineBar />
      <ProblemsPanel />
      <StatusBar />
      <EditorRoot />
      <ConnectDialog />
      <SchemaSetupPanel />
      <TrashDialogs />
      <ExportDialog />
    </div>
  );
}
