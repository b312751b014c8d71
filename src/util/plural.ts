/** `1 monitor`, `3 monitors`, `2 changes`; `many` for the words whose plural is not one more `s`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
