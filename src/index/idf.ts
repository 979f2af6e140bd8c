/**
 * Manticore's IDF in float32 (src/sphinxsearch.cpp, sphCreateRanker): N raised to at least n,
 * idf = log((N-n+1)/n) / (2*log(N+1)) ('normalized', the default) or log(N/n) / (2*log(N+1))
 * ('plain'), then divided by the number of query keywords (tfidf_normalized), times the boost.
 */
const f = Math.fround;

export function computeIdf(totalDocs: number, termDocs: number, queryWords: number, plain = false, boost = 1): number {
  let idf = 0;
  if (termDocs > 0) {
    const n = Math.max(totalDocs, termDocs);
    const logTotal = f(Math.log(f(1 + n)));
    const ratio = plain ? f(f(n) / f(termDocs)) : f(f(n - termDocs + 1) / f(termDocs));
    idf = f(f(Math.log(ratio)) / f(2 * logTotal));
  }
  if (queryWords > 0) idf = f(idf / queryWords);
  return f(idf * boost);
}
