/**
 * What the index gets for a field's text: the pipeline's tokens (with SPZ mark terms), plus the
 * unstemmed `=word` forms when exact words are on. One function for the table's own writes and for
 * the build thread of a bulk load (background/build-worker.ts), so both index a text alike.
 */
import { exactWordsEnabled, withExactForms } from '../index/exact-forms.js';
import { withMarkTerms } from '../index/spz-terms.js';
import type { FieldTokens } from '../index/types.js';
import type { TableSettings } from '../schema/types.js';
import type { TextPipeline } from '../text/text-pipeline.js';

export function indexedField(pipeline: TextPipeline, settings: TableSettings, text: string): FieldTokens {
  const indexed = pipeline.indexField(text);
  const f = withMarkTerms(indexed, indexed.marks);
  if (!exactWordsEnabled(pipeline.settings.morphology.length > 0, settings)) return f;
  return withExactForms(f, pipeline.tokenize(text));
}
