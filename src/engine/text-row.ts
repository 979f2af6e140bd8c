/**
 * A row of a small INSERT/REPLACE carried as its fields' texts (DocInput.texts) on its way to the RAM
 * tail: not tokenized when it arrives but at the tail's seal, every row of the tail in one batch by the
 * table's text pipeline (build-job.ts buildOfJob, the build thread's path: fields scanned a run at a
 * time, no FieldTokens per field). Whatever reads `fields` (a big batch's build, a seal of mixed rows)
 * tokenizes the row then, as Table.docInput would have.
 */
import type { AttrValue, DocInput, FieldTokens, IndexSchema } from '../index/types.js';
import type { TailBuilder } from '../index/rt-index-options.js';
import type { TableSettings } from '../schema/types.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import { buildOfJob, type BuildJob } from './background/build-job.js';
import { indexedField } from './field-input.js';
import { keepShape } from '../util/shape-keeper.js';

export class TextRow implements DocInput {
  #fields: FieldTokens[] | undefined;

  constructor(
    readonly docId: bigint,
    readonly texts: string[],
    readonly attrs: AttrValue[],
    /** The pipeline and settings of the table when the row was prepared (an ALTER may change the table's). */
    readonly pipeline: TextPipeline,
    readonly settings: TableSettings,
  ) {}

  get fields(): FieldTokens[] {
    return (this.#fields ??= this.texts.map((t) => indexedField(this.pipeline, this.settings, t)));
  }
}

// the row's map kept between seals (util/shape-keeper.ts): no TextRow lives from one seal to the next burst
// of INSERTs, and the functions optimized for it (rowTokens, jobOf, the tail's apply path) were compiled
// again after each idle collection. Typed nulls: the kept row is never read.
keepShape(new TextRow(0n, [], [], null as unknown as TextPipeline, null as unknown as TableSettings));

/** The tail builder of the engine's tables: rows of texts of one pipeline as one build job. */
export const textRowBuilder: TailBuilder = {
  build(schema, rows) {
    const j = jobOf(schema, rows);
    return j ? buildOfJob(j.pipeline, j.job) : null;
  },
};

/** The build job of `rows` when all are TextRows of one pipeline, else null. */
function jobOf(schema: IndexSchema, rows: DocInput[]): { pipeline: TextPipeline; job: BuildJob } | null {
  const first = rows[0];
  if (!(first instanceof TextRow)) return null;
  const nf = schema.fields.length;
  const texts: string[] = new Array(rows.length * nf);
  const lengths = new Uint32Array(texts.length);
  const ids = new BigUint64Array(rows.length);
  for (let r = 0, k = 0; r < rows.length; r++) {
    const row = rows[r];
    if (!(row instanceof TextRow) || row.pipeline !== first.pipeline) return null;
    ids[r] = row.docId; // a BigUint64Array stores it modulo 2^64, as BigInt.asUintN(64, ...) would (without a BigInt per row)
    for (let f = 0; f < nf; f++, k++) {
      texts[k] = row.texts[f]!;
      lengths[k] = texts[k].length;
    }
  }
  const attrs = schema.attrs.map((_, a) => rows.map((row) => row.attrs[a]!));
  return { pipeline: first.pipeline, job: { settings: first.settings, schema, ids, text: texts.join(''), lengths, attrs } };
}
