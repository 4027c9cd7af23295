/** Placeholder until the REST helper's eval code lands; see judgedNdcg. */
export interface NdcgResult {
  hybrid: number | null;
  [key: string]: unknown;
}
export async function judgedNdcg(_snapshotFile: string, _datasetDir: string): Promise<NdcgResult | null> {
  return null;
}
