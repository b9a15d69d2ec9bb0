// The word-level difference of two transcripts (product.md: unchanged words as they are, removed
// ones prefixed `-`, added ones prefixed `+`), by the longest common subsequence of words.
const words = (text: string) => text.split(/\s+/).filter(Boolean);

export function wordDiff(before: string, after: string): string[] {
  const a = words(before);
  const b = words(after);
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push(a[i]!);
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) {
      out.push(`-${a[i]!}`);
      i++;
    } else {
      out.push(`+${b[j]!}`);
      j++;
    }
  }
  while (i < a.length) out.push(`-${a[i++]!}`);
  while (j < b.length) out.push(`+${b[j++]!}`);
  return out;
}
