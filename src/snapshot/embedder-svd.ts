/**
 * Truncated SVD by randomized range finding (Halko, Martinsson and Tropp 2011,
 * algorithm 4.4 with power iterations), for the built-in embedder.
 *
 * The matrix is never formed: X = A * F, where A (documents x units) holds the
 * TF-IDF weight of each word/bigram/concept in each document and F (units x
 * features) spreads each word over its own feature and its character n-grams.
 * Both factors are sparse and small (a document has ~100 units, a word ~20
 * features), so X * M and X^T * M cost ~100x less than with X materialized.
 *
 * Dense matrices are row-major Float64Array (rows x cols). Everything is
 * deterministic: the random test matrix comes from a seeded PRNG.
 */

/** Compressed sparse rows. */
export interface Csr {
  rows: number;
  cols: number;
  rowStart: Int32Array; // length rows + 1
  colIndex: Int32Array;
  values: Float32Array;
}

export interface Dense {
  rows: number;
  cols: number;
  data: Float64Array;
}

const dense = (rows: number, cols: number): Dense => ({ rows, cols, data: new Float64Array(rows * cols) });

/** S * M (S sparse rows x k, M dense k x c). */
function sparseTimesDense(s: Csr, m: Dense): Dense {
  const out = dense(s.rows, m.cols);
  const c = m.cols;
  for (let r = 0; r < s.rows; r++) {
    const o = r * c;
    for (let p = s.rowStart[r]!; p < s.rowStart[r + 1]!; p++) {
      const v = s.values[p]!;
      const mi = s.colIndex[p]! * c;
      for (let j = 0; j < c; j++) out.data[o + j]! += v * m.data[mi + j]!;
    }
  }
  return out;
}

/** S^T * M (S sparse k x cols, M dense k x c) -> cols x c. */
function sparseTransposeTimesDense(s: Csr, m: Dense): Dense {
  const out = dense(s.cols, m.cols);
  const c = m.cols;
  for (let r = 0; r < s.rows; r++) {
    const mi = r * c;
    for (let p = s.rowStart[r]!; p < s.rowStart[r + 1]!; p++) {
      const v = s.values[p]!;
      const o = s.colIndex[p]! * c;
      for (let j = 0; j < c; j++) out.data[o + j]! += v * m.data[mi + j]!;
    }
  }
  return out;
}

/** M^T M (c x c). */
function gram(m: Dense): Float64Array {
  const c = m.cols;
  const g = new Float64Array(c * c);
  for (let r = 0; r < m.rows; r++) {
    const o = r * c;
    for (let i = 0; i < c; i++) {
      const v = m.data[o + i]!;
      if (v === 0) continue;
      const gi = i * c;
      for (let j = i; j < c; j++) g[gi + j]! += v * m.data[o + j]!;
    }
  }
  for (let i = 0; i < c; i++) for (let j = 0; j < i; j++) g[i * c + j] = g[j * c + i]!;
  return g;
}

/** M * W (W c x c2, row-major). */
function timesSmall(m: Dense, w: Float64Array, c2: number): Dense {
  const c = m.cols;
  const out = dense(m.rows, c2);
  for (let r = 0; r < m.rows; r++) {
    const o = r * c;
    const oo = r * c2;
    for (let i = 0; i < c; i++) {
      const v = m.data[o + i]!;
      if (v === 0) continue;
      const wi = i * c2;
      for (let j = 0; j < c2; j++) out.data[oo + j]! += v * w[wi + j]!;
    }
  }
  return out;
}

/**
 * Eigen-decomposition of a symmetric n x n matrix by cyclic Jacobi rotations.
 * Returns eigenvalues in descending order and eigenvectors as columns (row-major n x n),
 * each with its largest component positive so the result does not depend on rounding.
 */
export function symmetricEigen(input: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += a[i * n + i]! ** 2;
      for (let j = i + 1; j < n; j++) off += a[i * n + j]! ** 2;
    }
    if (off <= 1e-22 * diag || off === 0) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cos = 1 / Math.sqrt(t * t + 1);
        const sin = t * cos;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = cos * akp - sin * akq;
          a[k * n + q] = sin * akp + cos * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = cos * apk - sin * aqk;
          a[q * n + k] = sin * apk + cos * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = cos * vkp - sin * vkq;
          v[k * n + q] = sin * vkp + cos * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y]! - a[x * n + x]! || x - y);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src]!;
    let biggest = 0;
    for (let k = 0; k < n; k++) if (Math.abs(v[k * n + src]!) > Math.abs(biggest)) biggest = v[k * n + src]!;
    const sign = biggest < 0 ? -1 : 1;
    for (let k = 0; k < n; k++) vectors[k * n + dst] = sign * v[k * n + src]!;
  });
  return { values, vectors };
}

/**
 * An orthonormal basis of M's column space, through the eigen-decomposition of M^T M
 * (directions with negligible energy are dropped, so rank-deficient inputs work).
 * One pass squares M's condition number, which double precision absorbs here: the
 * caller orthonormalizes after every multiplication by X X^T.
 */
function orthonormalize(m: Dense): Dense {
  const c = m.cols;
  const { values, vectors } = symmetricEigen(gram(m), c);
  const keep: number[] = [];
  for (let i = 0; i < c; i++) if (values[i]! > values[0]! * 1e-12 && values[i]! > 0) keep.push(i);
  const w = new Float64Array(c * keep.length);
  keep.forEach((col, j) => {
    const scale = 1 / Math.sqrt(values[col]!);
    for (let i = 0; i < c; i++) w[i * keep.length + j] = vectors[i * c + col]! * scale;
  });
  return timesSmall(m, w, keep.length);
}

/** Standard normal numbers from a seeded xorshift PRNG (Box-Muller). */
function gaussianMatrix(rows: number, cols: number, seed: number): Dense {
  const m = dense(rows, cols);
  let s = seed >>> 0 || 0x9e3779b9;
  const uniform = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return (s + 0.5) / 4294967296;
  };
  for (let i = 0; i < m.data.length; i += 2) {
    const r = Math.sqrt(-2 * Math.log(uniform()));
    const t = 2 * Math.PI * uniform();
    m.data[i] = r * Math.cos(t);
    if (i + 1 < m.data.length) m.data[i + 1] = r * Math.sin(t);
  }
  return m;
}

export interface TruncatedSvd {
  /** Right singular vectors, features x k (row-major); columns past the rank are zero. */
  v: Dense;
  singularValues: Float64Array;
}

/** Top-k singular triplets' V and sigma of X = A * F. */
export function randomizedSvd(
  a: Csr,
  f: Csr,
  opts: { k: number; oversample: number; powerIterations: number; seed: number },
): TruncatedSvd {
  const features = f.cols;
  const width = opts.k + opts.oversample;
  const timesX = (m: Dense) => sparseTimesDense(a, sparseTimesDense(f, m)); // features x c -> docs x c
  const timesXt = (m: Dense) => sparseTransposeTimesDense(f, sparseTransposeTimesDense(a, m)); // docs x c -> features x c

  let y = orthonormalize(timesX(gaussianMatrix(features, width, opts.seed)));
  // Power iterations sharpen the basis towards the top singular directions. Only the
  // (smaller) document side is re-orthonormalized: the feature side has ~3x more rows.
  for (let i = 0; i < opts.powerIterations; i++) y = orthonormalize(timesX(timesXt(y)));
  // B = Y^T X, kept transposed (features x c); B B^T = Bt^T Bt is small.
  const bt = timesXt(y);
  const c = bt.cols;
  const { values, vectors } = symmetricEigen(gram(bt), c);
  const k = opts.k;
  const w = new Float64Array(c * k);
  const singularValues = new Float64Array(k);
  for (let j = 0; j < Math.min(k, c); j++) {
    const lambda = values[j]!;
    if (!(lambda > values[0]! * 1e-12)) continue; // past the rank: leave the column zero
    singularValues[j] = Math.sqrt(lambda);
    for (let i = 0; i < c; i++) w[i * k + j] = vectors[i * c + j]! / singularValues[j]!;
  }
  return { v: timesSmall(bt, w, k), singularValues };
}
