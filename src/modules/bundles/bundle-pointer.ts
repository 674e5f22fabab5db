/** `/rules/1/when/op` → `bundle.rules[1].when.op` (the wire path of the push body). */
export function pointerToField(pointer: string, root = 'bundle'): string {
  let field = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    field += /^\d+$/.test(segment)
      ? `[${segment}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)
        ? `.${segment}`
        : `[${JSON.stringify(segment)}]`;
  }
  return field;
}
