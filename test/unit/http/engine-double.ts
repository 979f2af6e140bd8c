// An in-test Engine: answers fixed Results per SQL text and records what it was asked (renderer tests only).
import type { Engine } from '../../../src/engine/engine.js';
import type { Result } from '../../../src/engine/result.js';
import type { Session } from '../../../src/engine/session.js';

export class EngineDouble implements Engine {
  calls: { sql: string; session: Session }[] = [];
  constructor(private readonly answers: Record<string, Result[] | (() => never)>) {}

  async execute(sql: string, session: Session): Promise<Result[]> {
    this.calls.push({ sql, session });
    const answer = this.answers[sql];
    if (answer === undefined) return [{ kind: 'error', code: 'PARSE_ERROR', message: `no answer for ${sql}` }];
    return typeof answer === 'function' ? answer() : answer;
  }

  async close(): Promise<void> {}
}
