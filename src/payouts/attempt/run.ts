import { applyEvent, nextStep } from './machine.js';
import type {
  AttemptPolicy,
  AttemptState,
  AttemptStep,
  LookupResult,
  LookupWindow,
  PostAnswer,
} from './state.js';

/** What a driver does for the machine: its clock, its one POST, its one search, and how it waits. */
export interface AttemptEffects {
  /** Now, by the clock the state's times are read from. */
  now(): number;
  /**
   * Right before a POST: the outbox renews and fences its claim here (and the state it must persist first is
   * the one given). False: do not send, stop where the state is.
   */
  beforePost?(state: AttemptState): Promise<boolean> | boolean;
  /** One POST; its answer classified (see `PostAnswer`). */
  post(state: AttemptState): Promise<PostAnswer>;
  /** One search of the listings; a failed request is `incomplete`, never thrown (but an abort). */
  lookup(
    window: LookupWindow,
    state: AttemptState,
  ): Promise<{ result: LookupResult; clockSkewMs?: number | undefined }>;
  /** Waits until `until`; false: the driver stops here and resumes later from the state it keeps. */
  wait(step: Extract<AttemptStep, { type: 'wait' }>): Promise<boolean>;
  /** Each state after an event, with the step that led to it (for logs and traces). */
  observe?(state: AttemptState, step: AttemptStep): void;
}

/** Where a run stopped: done (with its outcome), a wait the driver chose not to sit out, or a post it refused. */
export interface AttemptStop {
  state: AttemptState;
  step: AttemptStep;
}

/** Drives the machine until it is done or the driver stops it: the one loop every driver runs. */
export async function runAttempt(
  fx: AttemptEffects,
  start: AttemptState,
  policy: AttemptPolicy,
): Promise<AttemptStop> {
  let state = start;
  for (;;) {
    const step = nextStep(state, fx.now(), policy);
    if (step.type === 'done') return { state, step };
    if (step.type === 'wait') {
      if (!(await fx.wait(step))) return { state, step };
      continue;
    }
    if (step.type === 'lookup') {
      // A proof counts from when its first page was read, not when its walk ended.
      const at = fx.now();
      const { result, clockSkewMs } = await fx.lookup(step.window, state);
      state = applyEvent(state, { type: 'looked', at, result, clockSkewMs }, policy);
    } else {
      if (fx.beforePost && !(await fx.beforePost(state))) return { state, step };
      state = applyEvent(state, { type: 'sending', at: fx.now() }, policy);
      const answer = await fx.post(state);
      state = applyEvent(state, { type: 'answered', at: fx.now(), answer }, policy);
    }
    fx.observe?.(state, step);
  }
}
