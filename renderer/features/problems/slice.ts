/**
 * Problems panel state: the vault's problems (main's validated list, refetched
 * on every vault-changed push), which severities are shown, and the problem the
 * user clicked (the entity panel highlights its field).
 */
import type { StateCreator } from 'zustand';
import type { Problem, Severity } from '../../../shared/types.js';
import { api } from '../../api/client.js';
import type { AppState } from '../../store/index.js';
import { firstListsGate } from '../canvas/slice.js';
import { problemTarget } from './group.js';

export interface ProblemFocus {
  problem: Problem;
  /** bumps on every click, so clicking the same problem again scrolls again */
  seq: number;
}

export interface ProblemsSlice {
  problems: Problem[];
  problemsLoaded: boolean;
  problemsError: string | null;
  problemsOpen: boolean;
  /** info is hidden by default: real vaults have many unknown-property infos */
  problemSeverities: Record<Severity, boolean>;
  problemFocus: ProblemFocus | null;
  loadProblems(): Promise<void>;
  toggleProblems(open?: boolean): void;
  toggleProblemSeverity(s: Severity): void;
  /** open the problem's entity in the entity panel, at the field */
  openProblem(p: Problem): Promise<void>;
}

let loadSeq = 0;

export const createProblemsSlice: StateCreator<AppState, [], [], ProblemsSlice> = (set, get) => ({
  problems: [],
  problemsLoaded: false,
  problemsError: null,
  problemsOpen: false,
  problemSeverities: { error: true, warning: true, info: false },
  problemFocus: null,

  async loadProblems() {
    const mine = ++loadSeq;
    try {
      // the first load's problems wait for a big graph's first picture (canvas/slice.ts firstListsGate)
      await firstListsGate();
      const problems = await api.call('problems-list', { audience: get().audience });
      // a later load started meanwhile: its answer is newer
      if (mine === loadSeq) set({ problems, problemsLoaded: true, problemsError: null });
    } catch (err) {
      if (mine === loadSeq) set({ problemsError: err instanceof Error ? err.message : String(err) });
    }
  },

  toggleProblems: (open) => set((s) => ({ problemsOpen: open ?? !s.problemsOpen })),

  toggleProblemSeverity: (sev) => set((s) => ({ problemSeverities: { ...s.problemSeverities, [sev]: !s.problemSeverities[sev] } })),

  async openProblem(problem) {
    set((s) => ({ problemFocus: { problem, seq: (s.problemFocus?.seq ?? 0) + 1 } }));
    const target = problemTarget(problem);
    if (target) await get().select(target);
  },
});
