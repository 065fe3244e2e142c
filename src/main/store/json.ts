/** JSON columns: `undefined` is stored as SQL NULL (JSON has no undefined), and NULL reads back as null. */
export function toJson(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value)
}

export function parseJson(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown)
}
