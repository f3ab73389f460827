/**
 * An immutable singly linked list, newest first. `evolve` must not mutate state, and copying a
 * map or set on every event would make folding a long stream quadratic; prepending here is O(1)
 * and the single lookup a decision needs is O(n).
 */
export type LookupList<Item> = { readonly head: Item; readonly tail: LookupList<Item> } | null;

export function prepend<Item>(list: LookupList<Item>, item: Item): LookupList<Item> {
  return { head: item, tail: list };
}

export function findIn<Item>(list: LookupList<Item>, matches: (item: Item) => boolean): Item | undefined {
  for (let node = list; node; node = node.tail) {
    if (matches(node.head)) return node.head;
  }
  return undefined;
}
