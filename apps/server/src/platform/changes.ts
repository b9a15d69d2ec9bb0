// What a PUT or PATCH really changes: the requested fields whose values differ from the stored row.
// An empty result means nothing to write and nothing to announce (`{}` or a body that repeats the
// current values answers 200 with the object as it is).

const same = (a: unknown, b: unknown) => (Array.isArray(a) || Array.isArray(b) ? JSON.stringify(a) === JSON.stringify(b) : a === b);

export function changedFields<Row extends object, Key extends keyof Row>(
  current: Row,
  requested: { [K in Key]?: Row[K] | undefined },
  keys: readonly Key[],
): Partial<Pick<Row, Key>> {
  const changes: Partial<Pick<Row, Key>> = {};
  for (const key of keys) {
    const value = requested[key];
    if (value !== undefined && !same(value, current[key])) changes[key] = value;
  }
  return changes;
}

export const isEmpty = (changes: object) => Object.keys(changes).length === 0;
