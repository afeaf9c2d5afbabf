/**
 * The edits of the review bench: order-total functions, and six concerns of one plausible task, each an
 * edit of its own size and shape, as a diligent worker would make them.
 */
/** One function of a module, as lines; every function has this shape before the worker edits it. */
export function block(n: number): string[] {
  return [
    `/** The total of order kind ${n}, tax included. */`,
    `export function total${n}(items: Item[], rate: number): number {`,
    "  let sum = 0;",
    "  for (const item of items) {",
    "    sum += item.price * item.quantity;",
    "  }",
    "  const tax = sum * rate;",
    "  return Math.round((sum + tax) * 100) / 100;",
    "}",
    "",
  ];
}

export interface Concern {
  criterion: string;
  note: (n: number) => string;
  /** The edited function, and the offset in it of the first changed line (where the worker cites it). */
  edit: (n: number) => { lines: string[]; first: number };
}

const splice = (n: number, at: number, remove: number, add: string[]) => {
  const lines = block(n);
  lines.splice(at, remove, ...add);
  return { lines, first: at };
};

// Six concerns of one plausible task, each an edit of its own size and shape.
export const CONCERNS: Concern[] = [
  {
    criterion: "A negative quantity or a missing price is refused with a RangeError naming the item",
    note: (n) => `guards in the loop of total${n}`,
    edit: (n) =>
      splice(n, 4, 1, [
        "    if (item.quantity < 0) {",
        "      throw new RangeError(`item ${item.sku} has a negative quantity (${item.quantity})`);",
        "    }",
        "    if (!Number.isFinite(item.price)) {",
        "      throw new RangeError(`item ${item.sku} has no price`);",
        "    }",
        "    sum += item.price * item.quantity;",
      ]),
  },
  {
    criterion: "A tax rate outside 0..1 is refused before any arithmetic",
    note: (n) => `rate check at the top of total${n}`,
    edit: (n) =>
      splice(n, 2, 0, [
        "  if (!(rate >= 0 && rate <= 1)) {",
        "    throw new RangeError(`tax rate ${rate} is outside 0..1`);",
        "  }",
      ]),
  },
  {
    criterion: "Totals round half to even through roundCents()",
    note: (n) => `total${n} returns roundCents()`,
    edit: (n) =>
      splice(n, 6, 2, [
        "  const tax = roundCents(sum * rate);",
        "  const gross = sum + tax;",
        "  // Half to even keeps the sum of many orders unbiased.",
        "  return roundCents(gross);",
      ]),
  },
  {
    criterion: "Every computed total is reported to the audit hook with its inputs",
    note: (n) => `audit.record in total${n}`,
    edit: (n) =>
      splice(n, 7, 1, [
        "  const total = Math.round((sum + tax) * 100) / 100;",
        "  try {",
        `    audit.record({ kind: "total${n}", items: items.length, sum, tax, total });`,
        "  } catch (error) {",
        "    // An audit outage must not fail a sale: the record is kept and sent again later.",
        "    audit.defer(error);",
        "  }",
        "  return total;",
      ]),
  },
  {
    criterion: "A discount is applied before tax, never after, and never below zero",
    note: (n) => `discount parameter and its use in total${n}`,
    edit: (n) => {
      const lines = block(n);
      lines.splice(6, 0, ...[
        "  if (discount) {",
        '    const off = discount.kind === "percent" ? (sum * discount.value) / 100 : discount.value;',
        "    sum = Math.max(0, sum - off);",
        "  }",
      ]);
      lines[0] = `/** The total of order kind ${n}, tax included, after an optional discount. */`;
      lines[1] = `export function total${n}(items: Item[], rate: number, discount?: Discount): number {`;
      return { lines, first: 0 };
    },
  },
  {
    criterion: "Sums are kept in integer cents so no float drift reaches the total",
    note: (n) => `total${n} sums in cents`,
    edit: (n) =>
      splice(n, 2, 6, [
        "  if (items.length === 0) return 0;",
        "  let cents = 0;",
        "  for (const item of items) {",
        "    // Prices carry at most two decimals; rounding here removes the binary error of each one.",
        "    cents += Math.round(item.price * 100) * item.quantity;",
        "  }",
        "  const taxCents = Math.round(cents * rate);",
        "  return (cents + taxCents) / 100;",
      ]),
  },
];
