// Naive twins of the position matchers and LCS rankers, over plain hit arrays (Manticore's
// FSMphrase_c, FSMproximity_c, ExtOrder_c, RankerState_Proximity_fn), written for clarity.

export interface Hit { pos: number; qpos: number; span: number; weight: number }

export const END = 0x00800000;
export const withField = (p: number) => (p & ~END) >>> 0;
export const fieldOf = (p: number) => p >>> 24;
export const posOf = (p: number) => p & 0x007fffff;

export function sortHits(hits: Hit[], qposDesc: boolean): Hit[] {
  return [...hits].sort((a, b) => a.pos - b.pos || (qposDesc ? b.qpos - a.qpos : a.qpos - b.qpos));
}

export function phrase(hits: Hit[], atoms: number[]): Hit[] {
  const first = atoms[0];
  const span = atoms[atoms.length - 1] - first;
  const next = new Map<number, number>();
  for (let i = 1; i < atoms.length; i++) next.set(atoms[i - 1] - first, atoms[i] - atoms[i - 1]);
  let states: { tag: number; exp: number }[] = [];
  const out: Hit[] = [];
  for (const h of hits) {
    const pos = withField(h.pos);
    if (h.qpos === first) states.push({ tag: 0, exp: pos + (next.get(0) ?? -0x7fffffff) });
    for (let i = states.length - 1; i >= 0; i--) {
      const s = states[i];
      if (s.exp < pos) { states[i] = states[states.length - 1]; states.pop(); continue; }
      if (s.exp === pos && atoms[s.tag + 1] === h.qpos) { s.tag++; s.exp = pos + (next.get(h.qpos - first) ?? -0x7fffffff); }
      if (s.tag === atoms.length - 1) {
        out.push({ pos: pos - span, qpos: first, span: span + 1, weight: atoms.length });
        states = [];
        break;
      }
    }
  }
  return out;
}

export function proximity(hits: Hit[], atoms: number[], dist: number): Hit[] {
  const minQ = atoms[0];
  const qlen = atoms[atoms.length - 1] - minQ;
  const prox: (number | null)[] = new Array(qlen + 1).fill(null);
  let words = 0;
  let expPos = 0;
  let minQi = -1;
  const out: Hit[] = [];
  for (const h of hits) {
    const qi = h.qpos - minQ;
    let pos = withField(h.pos);
    if (prox[qi] === null) words++;
    prox[qi] = pos;
    if (pos >= expPos || qi === minQi) {
      minQi = qi;
      const minPos = pos - qlen - dist;
      for (let i = 0; i <= qlen; i++) {
        const p = prox[i];
        if (p === null) continue;
        if (p <= minPos) { prox[i] = null; words--; continue; }
        if (p < pos) { minQi = i; pos = p; }
      }
      expPos = (prox[minQi] as number) + qlen + dist;
    }
    if (words !== atoms.length) continue;
    const deltas = prox.flatMap((p, i) => (p === null ? [] : [p - i])).sort((a, b) => a - b);
    const max = Math.max(...prox.filter((p): p is number => p !== null));
    let weight = 0;
    let run = 0;
    for (let i = 1; i <= deltas.length; i++) {
      if (i < deltas.length && deltas[i] === deltas[i - 1]) run++;
      else { if (run) weight += run + 1; run = 0; }
    }
    const minP = prox[minQi] as number;
    out.push({ pos: minP, qpos: minQ, span: max - minP + 1, weight: weight || 1 });
    prox[minQi] = null;
    minQi = -1;
    words--;
    expPos = 0;
  }
  return out;
}

/** Strict order over children hit lists (each sorted by position). */
export function order(children: Hit[][]): Hit[] {
  const idx = children.map(() => 0);
  let longest: Hit[] = [];
  let recent: Hit[] = [];
  let posLongest = 0;
  let posRecent = 0;
  let field = -1;
  const out: Hit[] = [];
  for (;;) {
    let c = -1;
    for (let i = 0; i < children.length; i++) {
      if (idx[i] < children[i].length && (c < 0 || withField(children[i][idx[i]].pos) < withField(children[c][idx[c]].pos))) c = i;
    }
    if (c < 0) break;
    const h = children[c][idx[c]++];
    const hf = fieldOf(h.pos);
    const hp = posOf(h.pos);
    if (hf !== field) {
      longest = [];
      recent = [];
      if (c === 0) { longest = [h]; posLongest = hp + h.span; field = hf; }
    } else if (c === longest.length && hp >= posLongest) {
      longest.push(h);
      posLongest = hp + h.span;
      if (longest.length === children.length) { out.push(...longest); longest = []; recent = []; posRecent = posLongest; }
    } else if (c === 0) {
      recent = [h];
      posRecent = hp + h.span;
      if (!longest.length) { longest = [h]; posLongest = hp + h.span; }
    } else if (c === recent.length && hp >= posRecent) {
      recent.push(h);
      posRecent = hp + h.span;
      if (recent.length === longest.length) { longest = recent; recent = []; posLongest = posRecent; }
    }
  }
  return out;
}

/** Per-field LCS bytes: unique keywords (delta chains) or repeated ones (qpos masks). */
export function lcs(hits: Hit[], dupes: boolean): Map<number, number> {
  const out = new Map<number, number>();
  const bump = (f: number, v: number) => { if (v > (out.get(f) ?? 0)) out.set(f, v); };
  if (!dupes) {
    let cur = 0;
    let exp = -1;
    let last = -1;
    for (const h of hits) {
      const pos = withField(h.pos);
      const delta = pos - h.qpos;
      if (pos > last) cur = ((delta === exp ? cur : 0) + h.weight) & 255;
      bump(fieldOf(h.pos), cur);
      last = pos;
      exp = delta + h.span - 1;
    }
    return out;
  }
  let cur = 0;
  let tailPos = 0;
  let tailMask = 0;
  let curMask = 0;
  let curPos = 0;
  for (const h of hits) {
    const pos = withField(h.pos);
    const f = fieldOf(h.pos);
    if (fieldOf(curPos) !== f) curMask = 0;
    if (pos !== curPos) {
      if (cur < 2) { tailPos = curPos; tailMask = curMask; cur = 1; }
      curMask = 0;
      curPos = pos;
      bump(f, h.weight & 255);
    }
    curMask = (curMask | (h.qpos < 32 ? 2 ** h.qpos : 0)) >>> 0;
    const delta = curPos - tailPos;
    if (delta > 0 && delta < 32 && (Math.floor(curMask / 2 ** delta) & tailMask) !== 0) {
      tailMask = h.qpos < 32 ? 2 ** h.qpos : 0;
      tailPos = curPos;
      cur = (cur + h.weight) & 255;
      curMask = 0;
      bump(f, cur);
    }
  }
  return out;
}

/** NEAR/N over operands' hits (Manticore's FSMmultinear_c), written out with plain arrays. */
export function near(children: Hit[][], dist: number): Hit[] {
  const k = children.length;
  const twofer = k === 2;
  const all = children.flatMap((hs, i) => hs.map((h, j) => ({ h, np: i + 1, i, j })))
    .sort((a, b) => withField(a.h.pos) - withField(b.h.pos) || b.h.qpos - a.h.qpos || a.i - b.i || a.j - b.j);
  type R = { pos: number; qpos: number; weight: number; np: number };
  let npos: number[] = [];
  const ring: R[] = new Array(k);
  let iRing = 0;
  let lastP = 0, lastML = 0, weight = 0, lastW = 0, firstHit = 0, firstQpos = 0, firstNpos = 0;
  let preP = 0, preML = 0, preW = 0;
  const tail = () => (iRing + npos.length - 1 + k) % k;
  const shift = () => { iRing = (iRing + 1) % k; };
  const out: Hit[] = [];
  for (const { h, np } of all) {
    const pos = withField(h.pos);
    const ml = h.span;
    if (lastP === pos) {
      if (twofer && np < firstNpos) { firstQpos = h.qpos; firstNpos = np; continue; }
      if (!twofer && np < ring[tail()].np) {
        if (!npos.includes(np)) {
          npos[npos.indexOf(ring[tail()].np)] = np;
          npos.sort((a, b) => a - b);
          ring[tail()] = { ...ring[tail()], np, qpos: h.qpos };
        }
        continue;
      }
      if (preP && lastML < ml) { lastML = preML; firstHit = lastP = preP; weight = weight - lastW + preW; } else continue;
    }
    if (lastP === 0 || lastP + lastML + dist <= pos) {
      firstHit = lastP = pos; lastML = ml; weight = lastW = h.weight; firstQpos = h.qpos;
      if (twofer) firstNpos = np;
      else { npos = [np]; ring[tail()] = { pos, qpos: h.qpos, weight: h.weight, np }; }
      continue;
    }
    if (twofer) {
      if (firstHit + lastML > pos && firstHit + lastML < pos + ml && lastML !== ml) {
        firstHit = lastP = pos; lastML = ml; weight = lastW = h.weight; firstQpos = h.qpos; firstNpos = np;
        continue;
      }
      if (np === firstNpos) {
        if (lastP < pos) {
          preML = lastML; preP = lastP; preW = h.weight;
          firstHit = lastP = pos; lastML = ml; weight = lastW = preW; firstQpos = h.qpos; firstNpos = np;
        }
        continue;
      }
    } else if (np < npos[0] || np > npos[npos.length - 1]) {
      firstQpos = Math.min(firstQpos, h.qpos);
      if (np < npos[0]) npos.unshift(np); else npos.push(np);
    } else if (np !== npos[0] && np !== npos[npos.length - 1]) {
      let end = npos.length;
      let start = 0;
      let skip = false;
      while (end - start > 1) {
        const mid = (start + end) >>> 1;
        if (np === npos[mid]) {
          if (np === ring[iRing].np) { weight -= ring[iRing].weight; firstHit = ring[iRing].pos; shift(); }
          else if (np === ring[tail()].np) weight -= ring[tail()].weight;
          else { skip = true; break; }
        }
        if (np < npos[mid]) end = mid; else start = mid;
      }
      if (skip) continue;
      npos.splice(end, 0, np);
      firstQpos = Math.min(firstQpos, h.qpos);
    } else if (np === ring[iRing].np) {
      weight -= ring[iRing].weight; firstHit = ring[iRing].pos; shift();
    } else if (np === ring[tail()].np) {
      weight -= ring[tail()].weight;
    } else continue;
    weight += h.weight;
    lastML = ml;
    if (!twofer) ring[tail()] = { pos, qpos: h.qpos, weight: h.weight, np };
    if (twofer || npos.length === k) {
      out.push({ pos: firstHit, qpos: Math.min(firstQpos, h.qpos), span: twofer ? 2 : npos.length, weight });
      preP = 0;
      if (twofer) { firstHit = lastP = pos; weight = h.weight; firstQpos = h.qpos; } else lastP = 0;
      continue;
    }
    lastP = pos;
  }
  return out;
}
