// Talking to an APY over HTTP (the embedded one or APERTIUM_URL): its JSON answers, its errors
// as ApertiumError (with the HTTP status when it answered), and its pairs (/listPairs).
import type { Pair } from './apertium-pairs';

export class ApertiumError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ApertiumError';
  }
}

export const TRANSLATE_TIMEOUT_MS = 60_000;
const LIST_TIMEOUT_MS = 5_000;

export async function callApy(base: string, endpoint: string, params: Record<string, string> | undefined, timeoutMs: number): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${base}${endpoint}`, {
      method: params ? 'POST' : 'GET',
      ...(params ? { body: new URLSearchParams(params) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ApertiumError(`Apertium APY at ${base} did not answer ${endpoint}: ${(error as Error).message}`);
  }
  const body = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const explanation = (json as { explanation?: unknown } | undefined)?.explanation;
    throw new ApertiumError(`Apertium APY ${endpoint} answered ${response.status}${typeof explanation === 'string' ? `: ${explanation}` : ''}`, response.status);
  }
  if (json === undefined) throw new ApertiumError(`Apertium APY ${endpoint} answered something other than JSON`);
  return json;
}

export async function listPairs(base: string): Promise<Pair[]> {
  const json = await callApy(base, '/listPairs', undefined, LIST_TIMEOUT_MS);
  const data = (json as { responseData?: unknown }).responseData;
  if (!Array.isArray(data)) throw new ApertiumError('Apertium APY /listPairs answered without responseData');
  const pairs: Pair[] = [];
  for (const item of data as unknown[]) {
    const { sourceLanguage, targetLanguage } = (item ?? {}) as { sourceLanguage?: unknown; targetLanguage?: unknown };
    if (typeof sourceLanguage === 'string' && typeof targetLanguage === 'string') pairs.push([sourceLanguage, targetLanguage]);
  }
  return pairs;
}
