/** The text pipeline's public surface: what the engine, index and highlighter use. */
export {
  createTextPipeline, type IndexedField, type KeywordRow, type PipelineOptions, type TextPipeline, type Token,
} from './text-pipeline.js';
export { parseTextSettings, TEXT_DEFAULTS, type TextSettings } from './text-settings.js';
export { HtmlStripper, type HtmlStripOptions, type StrippedText } from './html-strip.js';
export type { MarkKind, SpzMark } from './spz-marks.js';
export { stemEn } from './stem-en.js';
export { stemRu } from './stem-ru.js';
