#!/usr/bin/env node
// NL2SQL benchmark (issue 4): "2,000 NL2SQL cases on the example database with all SQL scorers: cases per
// second on SQLite and on PostgreSQL, and the time spent in the database versus in EvalLens."
//
//   node scripts/build-example-db.mjs && npm run build && node bench/nl2sql.mjs [options]
//
// Options:
//   --cases N      cases (default 2000)
//   --rounds K     measured rounds (default 5)
//   --warmup W     unmeasured rounds before them (default 1)
//   --out DIR      data, configs, reports and results (default bench/out/nl2sql)
//   --pg-url URL   the PostgreSQL database the benchmark loads the example schema into and runs on
//                  (default postgres://postgres@127.0.0.1:54329/evallens_bench_shop: its own database
//                  on the server of scripts/postgres.sh, created when missing, so that the tests'
//                  evallens_test is left alone)
//   --cli PATH     the EvalLens CLI (default dist/cli.js)
//   --generate-only  stop after step 3 (the data, the ground truth and the configs), as
//                  bench/nl2sql-scale.mjs uses it
//
// What it does:
// 1. Loads examples/nl2sql/setup/shop/sqlite/setup.sql into the PostgreSQL database with the
//    example's own loader (`node scripts/build-example-db.mjs --postgres URL`), copies the built examples/nl2sql/db/shop.sqlite
//    to DIR/db/shop.sqlite, and checks that both hold the same rows.
// 2. Generates N evalbench-standard-format items (DIR/nl2sql.json) from 27 query templates with a
//    seeded PRNG, golden and generated SQL for both dialects, and the verdict every scorer must give on
//    every case (DIR/truth.json), computed with sql.js and plain JS (bench/nl2sql-verdicts.mjs).
// 3. Writes the database configs (DIR/db-sqlite.yaml, DIR/db-postgres.yaml) and the EvalBench run
//    configs with the seven SQL scorers (DIR/sqlite.eval.yaml, DIR/postgres.eval.yaml).
// 4. Per round, as separate whole processes in an order that rotates: EvalLens on SQLite, EvalLens on
//    PostgreSQL (`node dist/cli.js run … --reporter json --out … --runs-dir …`), and the database
//    replays (bench/nl2sql-replay.mjs): the same plans on each database directly, and through
//    EvalLens's SQL engine alone. Wall time is hrtime around the spawn; peak RSS and CPU from GNU time.
// 5. Checks every run: cases × 7 results covering every case; each result equal to the ground truth;
//    the pass counts per scorer identical between SQLite and PostgreSQL; the replays' own verdicts equal
//    to the ground truth. Any difference is listed and makes the script exit 1.
// 6. Writes DIR/results.md (also printed) and DIR/results.json.
//
// No Math.random; nothing is downloaded.

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import os from 'node:os';
import { openDirectPostgres, openDirectSqlite } from './nl2sql-direct.mjs';
import { planOf, REGEXP, scorerVerdicts, SCORERS } from './nl2sql-verdicts.mjs';
import { makeRng } from './lib/random.mjs';
import { readReport } from './lib/report.mjs';
import { capture, round, stat } from './lib/stats.mjs';
import { failure, wholeNumber } from './lib/args.mjs';
import { GNU_TIME, measure } from './lib/measure.mjs';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const SEED = 20261204;
const EXAMPLE_DB = join(ROOT, 'examples', 'nl2sql', 'db', 'shop.sqlite');
const EXAMPLE_SCHEMA = join(ROOT, 'examples', 'nl2sql', 'setup', 'shop', 'sqlite', 'setup.sql');
const BUILD_SCRIPT = join(ROOT, 'scripts', 'build-example-db.mjs');

// --- Arguments --------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    out: { type: 'string' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:54329/evallens_bench_shop' },
    cli: { type: 'string' },
    'generate-only': { type: 'boolean', default: false },
  },
});
const die = failure('nl2sql.mjs');
const int = wholeNumber(die);
const N = int(args.cases, 'cases', 1);
const ROUNDS = int(args.rounds, 'rounds', 1);
const WARMUP = int(args.warmup, 'warmup', 0);
const OUT = args.out ? resolve(args.out) : join(HERE, 'out', 'nl2sql');
const CLI = args.cli ? resolve(args.cli) : join(ROOT, 'dist', 'cli.js');
const PG_URL = args['pg-url'];
const pgUrl = (() => {
  try {
    const u = new URL(PG_URL);
    if (!['postgres:', 'postgresql:'].includes(u.protocol)) throw new Error('not postgres://');
    return {
      host: u.hostname || '127.0.0.1',
      port: Number(u.port || 5432),
      user: decodeURIComponent(u.username) || 'postgres',
      database: decodeURIComponent(u.pathname.slice(1)),
    };
  } catch (e) {
    return die(`--pg-url must be postgres://user@host:port/database (${e.message})`);
  }
})();
if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(pgUrl.database))
  die(`--pg-url: the database name must be a plain identifier, not "${pgUrl.database}"`);
if (new URL(PG_URL).password !== '')
  die('--pg-url must not hold a password: the benchmark writes the URL into its results');

// --- PRNG -------------------------------------------------------------------------------------------

const weighted = (rng, table) => {
  let x = rng.rand() * Object.values(table).reduce((a, b) => a + b, 0);
  for (const [key, w] of Object.entries(table)) if ((x -= w) < 0) return key;
  return Object.keys(table)[0];
};

// --- The query templates ----------------------------------------------------------------------------
//
// Over examples/nl2sql/setup/shop/sqlite/setup.sql: customers(id, name, email, city, joined_on),
// products(id, name, category, price_cents, stock), orders(id, customer_id, ordered_on, status), order_items(order_id,
// product_id, quantity, unit_price_cents). Parameters come from the database itself (DOMAINS), read
// once when the cases are generated.
//
// A query template gives a spec: `cols` ({e, as?}; `e` may be {sqlite, postgres}), `from`, `where`
// (conditions, joined with AND), `group`, `having`, `order` ({col: index} or {e}, with dir), `limit`,
// and `star` (SELECT * is meaningful: one table, no aggregate). Every ORDER BY ends in a unique key, and
// nothing sorts on a nullable column, so the two engines return the same rows in the same order.
// Variants of the generated SQL are made from the spec (see VARIANTS). Things the two engines do
// differently are kept out on purpose: SELECT * with GROUP BY (PostgreSQL refuses it, SQLite runs it),
// deletes of referenced rows (foreign keys: PostgreSQL enforces them, SQLite by default does not), LIKE on
// mixed case (case-insensitive in SQLite only), NULLs in ORDER BY (first in SQLite, last in PostgreSQL).

const MONTH = { sqlite: "strftime('%Y-%m', ordered_on)", postgres: "to_char(ordered_on, 'YYYY-MM')" };
const q = (s) => `'${s.replaceAll("'", "''")}'`;

const DQL = {
  customers_in_city: (r, d) => {
    const city = r.pick(d.cities);
    return {
      nl: `List the ids and names of the customers who live in ${city}.`,
      cols: [{ e: 'id' }, { e: 'name' }],
      from: 'customers',
      where: [`city = ${q(city)}`],
      order: [{ col: 0 }],
      star: true,
      alt: () => [`city = ${q(r.other(d.cities, city))}`],
    };
  },
  count_in_city: (r, d) => {
    const city = r.pick(d.cities);
    return {
      nl: `How many customers live in ${city}?`,
      cols: [{ e: 'COUNT(*)', as: 'customer_count' }],
      from: 'customers',
      where: [`city = ${q(city)}`],
      alt: () => [`city = ${q(r.other(d.cities, city))}`],
    };
  },
  cheap_products: (r, d) => {
    const cat = r.pick(d.categories);
    const price = r.pick([700, 1000, 1500, 2000, 5000]);
    return {
      nl: `Which ${cat} products cost less than ${price} cents? Show name and price, cheapest first.`,
      cols: [{ e: 'name' }, { e: 'price_cents' }],
      from: 'products',
      where: [`category = ${q(cat)}`, `price_cents < ${price}`],
      order: [{ col: 1 }, { e: 'id' }],
      star: true,
      alt: () => [`category = ${q(cat)}`, `price_cents <= ${price}`],
    };
  },
  orders_with_status: (r, d) => {
    const s = r.pick(d.statuses);
    return {
      nl: `List the ${s} orders: id, customer and date.`,
      cols: [{ e: 'id' }, { e: 'customer_id' }, { e: 'ordered_on' }],
      from: 'orders',
      where: [`status = ${q(s)}`],
      order: [{ col: 0 }],
      star: true,
      alt: () => [`status = ${q(r.other(d.statuses, s))}`],
    };
  },
  orders_per_status: (r, d) => {
    const since = r.pick(d.orderDates);
    return {
      nl: `How many orders in each status were placed on or after ${since}?`,
      cols: [{ e: 'status' }, { e: 'COUNT(*)', as: 'order_count' }],
      from: 'orders',
      where: [`ordered_on >= ${q(since)}`],
      group: ['status'],
      order: [{ col: 0 }],
      alt: () => [`ordered_on > ${q(since)}`],
    };
  },
  top_spenders: (r) => {
    const k = r.int(2, 5);
    return {
      nl: `Which ${k} customers spent the most, not counting cancelled orders? Give id, name and total in cents.`,
      cols: [{ e: 'c.id' }, { e: 'c.name' }, { e: 'SUM(oi.quantity * oi.unit_price_cents)', as: 'spent_cents' }],
      from: 'customers c JOIN orders o ON o.customer_id = c.id JOIN order_items oi ON oi.order_id = o.id',
      where: ["o.status <> 'cancelled'"],
      group: ['c.id', 'c.name'],
      order: [{ col: 2, dir: 'DESC' }, { e: 'c.id' }],
      limit: k,
      alt: () => [], // forgets to leave out the cancelled orders
    };
  },
  order_contents: (r, d) => {
    const n = r.pick(d.orderIds);
    return {
      nl: `What did order ${n} contain? Product names, quantities and unit prices.`,
      cols: [{ e: 'p.name' }, { e: 'oi.quantity' }, { e: 'oi.unit_price_cents' }],
      from: 'order_items oi JOIN products p ON p.id = oi.product_id',
      where: [`oi.order_id = ${n}`],
      order: [{ col: 0 }],
      alt: () => [`oi.order_id = ${r.other(d.orderIds, n)}`],
    };
  },
  orders_in_month: (r, d) => {
    const m = r.pick(d.months);
    return {
      nl: `Which orders were placed in ${m}? Give id and status.`,
      cols: [{ e: 'id' }, { e: 'status' }],
      from: 'orders',
      where: [{ sqlite: `${MONTH.sqlite} = ${q(m)}`, postgres: `${MONTH.postgres} = ${q(m)}` }],
      order: [{ col: 0 }],
      star: true,
      alt: () => [
        {
          sqlite: `${MONTH.sqlite} = ${q(r.other(d.months, m))}`,
          postgres: `${MONTH.postgres} = ${q(r.other(d.months, m))}`,
        },
      ],
    };
  },
  orders_per_month: (r, d) => {
    const s = r.pick(d.statuses);
    return {
      nl: `How many orders that are not ${s} were placed each month?`,
      cols: [
        { e: MONTH, as: 'month' },
        { e: 'COUNT(*)', as: 'order_count' },
      ],
      from: 'orders',
      where: [`status <> ${q(s)}`],
      group: [MONTH],
      order: [{ col: 0 }],
      alt: () => [`status = ${q(s)}`],
    };
  },
  never_ordered: (r) => {
    const p = r.pick([500, 800, 1000, 2000, 4000]);
    return {
      nl: `Which products priced above ${p} cents have never been ordered?`,
      cols: [{ e: 'id' }, { e: 'name' }],
      from: 'products',
      where: ['id NOT IN (SELECT product_id FROM order_items)', `price_cents > ${p}`],
      order: [{ col: 0 }],
      star: true,
      alt: () => ['id IN (SELECT product_id FROM order_items)', `price_cents > ${p}`],
    };
  },
  no_orders_yet: (r, d) => {
    const since = r.pick(d.joinDates);
    return {
      nl: `Which customers who joined on or after ${since} have not ordered anything yet?`,
      cols: [{ e: 'c.id' }, { e: 'c.name' }],
      from: 'customers c LEFT JOIN orders o ON o.customer_id = c.id',
      where: ['o.id IS NULL', `c.joined_on >= ${q(since)}`],
      order: [{ col: 0 }],
      alt: () => ['o.id IS NOT NULL', `c.joined_on >= ${q(since)}`],
    };
  },
  revenue_per_category: (r, d) => {
    const s = r.pick(d.statuses);
    return {
      nl: `How much revenue, in cents, did each product category bring from ${s} orders? Largest first.`,
      cols: [{ e: 'p.category' }, { e: 'SUM(oi.quantity * oi.unit_price_cents)', as: 'revenue_cents' }],
      from: 'order_items oi JOIN products p ON p.id = oi.product_id JOIN orders o ON o.id = oi.order_id',
      where: [`o.status = ${q(s)}`],
      group: ['p.category'],
      order: [{ col: 1, dir: 'DESC' }, { col: 0 }],
      alt: () => [`o.status <> ${q(s)}`],
    };
  },
  best_sellers: (r) => {
    const k = r.int(2, 5);
    return {
      nl: `Which ${k} products sold the most units? Name and units sold.`,
      cols: [{ e: 'p.name' }, { e: 'SUM(oi.quantity)', as: 'units_sold' }],
      from: 'products p JOIN order_items oi ON oi.product_id = p.id',
      where: [],
      group: ['p.id', 'p.name'],
      order: [{ col: 1, dir: 'DESC' }, { e: 'p.id' }],
      limit: k,
      alt: () => ['oi.quantity > 1'],
    };
  },
  low_stock: (r) => {
    const n = r.pick([10, 15, 20, 30, 50]);
    return {
      nl: `Which products have fewer than ${n} units in stock? Name and stock, lowest first.`,
      cols: [{ e: 'name' }, { e: 'stock' }],
      from: 'products',
      where: [`stock < ${n}`],
      order: [{ col: 1 }, { e: 'id' }],
      star: true,
      alt: () => [`stock <= ${n}`],
    };
  },
  repeat_customers: (r) => {
    const k = r.int(1, 3);
    return {
      nl: `Which customers placed at least ${k} orders? Customer id and number of orders.`,
      cols: [{ e: 'customer_id' }, { e: 'COUNT(*)', as: 'order_count' }],
      from: 'orders',
      where: [],
      group: ['customer_id'],
      having: `COUNT(*) >= ${k}`,
      order: [{ col: 0 }],
      altHaving: `COUNT(*) > ${k}`,
    };
  },
  joined_before: (r, d) => {
    const before = r.pick(d.joinDates);
    return {
      nl: `Which customers joined before ${before}? Name and join date, earliest first.`,
      cols: [{ e: 'name' }, { e: 'joined_on' }],
      from: 'customers',
      where: [`joined_on < ${q(before)}`],
      order: [{ col: 1 }, { e: 'id' }],
      star: true,
      alt: () => [`joined_on <= ${q(before)}`],
    };
  },
  order_total: (r, d) => {
    const n = r.pick(d.orderIds);
    return {
      nl: `What is the total of order ${n}, in cents?`,
      cols: [{ e: 'SUM(quantity * unit_price_cents)', as: 'total_cents' }],
      from: 'order_items',
      where: [`order_id = ${n}`],
      alt: () => [`order_id = ${r.other(d.orderIds, n)}`],
    };
  },
  below_list_price: (r, d) => {
    const n = r.pick(d.orderIds);
    return {
      nl: `Which order lines from order ${n} on were sold below the product's current price, and by how much?`,
      cols: [{ e: 'oi.order_id' }, { e: 'p.name' }, { e: 'p.price_cents - oi.unit_price_cents', as: 'discount_cents' }],
      from: 'order_items oi JOIN products p ON p.id = oi.product_id',
      where: ['oi.unit_price_cents < p.price_cents', `oi.order_id >= ${n}`],
      order: [{ col: 0 }, { e: 'p.id' }],
      alt: () => ['oi.unit_price_cents <> p.price_cents', `oi.order_id >= ${n}`],
    };
  },
  name_search: (r, d) => {
    const frag = r.pick(d.nameFragments);
    return {
      nl: `Find the customers whose name contains "${frag}", in any case: id and email.`,
      cols: [{ e: 'id' }, { e: 'email' }],
      from: 'customers',
      where: [`lower(name) LIKE ${q(`%${frag}%`)}`],
      order: [{ col: 0 }],
      star: true,
      alt: () => [`lower(name) LIKE ${q(`${frag}%`)}`],
    };
  },
  average_price: (r, d) => {
    const cat = r.pick(d.categories);
    return {
      nl: `What is the average price, in cents, of the ${cat} products?`,
      cols: [{ e: 'AVG(price_cents)', as: 'avg_price_cents' }],
      from: 'products',
      where: [`category = ${q(cat)}`],
      alt: () => [`category = ${q(r.other(d.categories, cat))}`],
    };
  },
  customers_per_city: (r, d) => {
    const since = r.pick(d.joinDates);
    return {
      nl: `How many customers who joined on or after ${since} live in each city? Leave out customers without a city; most first.`,
      cols: [{ e: 'city' }, { e: 'COUNT(*)', as: 'customer_count' }],
      from: 'customers',
      where: ['city IS NOT NULL', `joined_on >= ${q(since)}`],
      group: ['city'],
      order: [{ col: 1, dir: 'DESC' }, { col: 0 }],
      alt: () => ['city IS NOT NULL', `joined_on > ${q(since)}`],
    };
  },
};

/** DML templates: golden SQL, eval queries (and setup/cleanup) per case; `wrong` a plausible mistake; `other` the same statement on the wrong row or value. */
const DML = {
  restock: (r, d) => {
    const p = r.pick(d.products);
    const k = r.pick([5, 10, 20, 25]);
    const sql = (id, n) => `UPDATE products SET stock = stock + ${n} WHERE id = ${id}`;
    return {
      nl: `Add ${k} units to the stock of the ${p.name}.`,
      golden: sql(p.id, k),
      evalQueries: ['SELECT id, stock FROM products ORDER BY id'],
      wrong: `UPDATE products SET stock = ${k} WHERE id = ${p.id}`,
      other: sql(r.other(d.products, p).id, k),
      badColumn: `UPDATE products SET stock_level = stock_level + ${k} WHERE id = ${p.id}`,
    };
  },
  cancel_order: (r, d) => {
    const n = r.pick(d.orderIds);
    const sql = (id, s) => `UPDATE orders SET status = ${q(s)} WHERE id = ${id}`;
    return {
      nl: `Cancel order ${n}.`,
      golden: sql(n, 'cancelled'),
      evalQueries: ['SELECT id, status FROM orders ORDER BY id'],
      wrong: sql(n, 'canceled'),
      other: sql(r.other(d.orderIds, n), 'cancelled'),
      badColumn: `UPDATE orders SET order_status = 'cancelled' WHERE id = ${n}`,
    };
  },
  new_customer: (r, d) => {
    const first = r.pick(['Ida', 'John', 'Frances', 'Dennis', 'Radia', 'Ken', 'Sophie', 'Tim']);
    const last = r.pick(['Rhodes', 'Backus', 'Allen', 'Ritchie', 'Perlman', 'Thompson', 'Wilson', 'Berners-Lee']);
    const city = r.pick(d.cities);
    const date = r.pick(['2024-05-02', '2024-05-15', '2024-06-01']);
    const email = `${first.toLowerCase()}.${last.toLowerCase()}@example.com`;
    const id = d.nextCustomerId;
    const ins = (c, e) =>
      `INSERT INTO customers (id, name, email, city, joined_on) VALUES (${id}, ${q(`${first} ${last}`)}, ${q(e)}, ${c === null ? 'NULL' : q(c)}, ${q(date)})`;
    return {
      nl: `Add the new customer ${first} ${last} (${email}) from ${city}, who joined on ${date}.`,
      golden: ins(city, email),
      evalQueries: ['SELECT id, name, email, city, joined_on FROM customers ORDER BY id'],
      wrong: ins(null, email), // the city left out
      other: ins(r.other(d.cities, city), email),
      badColumn: ins(city, r.pick(d.emails)), // an e-mail address that is taken: the UNIQUE constraint fails on both engines
    };
  },
  raise_prices: (r, d) => {
    const cat = r.pick(d.categories);
    const pct = r.pick([5, 10, 15, 20]);
    const sql = (c, p) => `UPDATE products SET price_cents = price_cents * ${100 + p} / 100 WHERE category = ${q(c)}`;
    return {
      nl: `Raise the prices of all ${cat} products by ${pct}%.`,
      golden: sql(cat, pct),
      evalQueries: [`SELECT id, price_cents FROM products WHERE category = ${q(cat)} ORDER BY id`],
      wrong: `UPDATE products SET price_cents = price_cents + ${pct} WHERE category = ${q(cat)}`,
      other: sql(r.other(d.categories, cat), pct),
      badColumn: `UPDATE products SET price = price * ${100 + pct} / 100 WHERE category = ${q(cat)}`,
    };
  },
  drop_unsold: (r, d) => {
    const id = d.nextProductId;
    const name = r.pick(['Matcha Whisk', 'Tea Tin', 'Sketchbook', 'Bamboo Tray']);
    return {
      nl: 'Delete the products that are out of stock and have never been ordered.',
      setup: [
        `INSERT INTO products (id, name, category, price_cents, stock) VALUES (${id}, ${q(name)}, 'kitchen', ${r.pick([900, 1500, 2400])}, 0)`,
      ],
      golden: 'DELETE FROM products WHERE stock = 0 AND id NOT IN (SELECT product_id FROM order_items)',
      evalQueries: ['SELECT id, name FROM products ORDER BY id'],
      cleanup: [`DELETE FROM products WHERE id = ${id}`],
      wrong: 'DELETE FROM products WHERE id NOT IN (SELECT product_id FROM order_items)', // forgets the stock condition
      other: `DELETE FROM products WHERE id = ${id}`, // the right row, by its id: the same effect
      badColumn: 'DELETE FROM products WHERE in_stock = 0 AND id NOT IN (SELECT product_id FROM order_items)',
    };
  },
  remove_line: (r, d) => {
    const line = r.pick(d.orderLines);
    const sql = (o, p) => `DELETE FROM order_items WHERE order_id = ${o} AND product_id = ${p}`;
    const otherLine = r.other(d.orderLines, line);
    return {
      nl: `Remove product ${line.product_id} from order ${line.order_id}.`,
      golden: sql(line.order_id, line.product_id),
      evalQueries: ['SELECT order_id, product_id, quantity FROM order_items ORDER BY order_id, product_id'],
      wrong: `DELETE FROM order_items WHERE order_id = ${line.order_id}`,
      other: sql(otherLine.order_id, otherLine.product_id),
      badColumn: `DELETE FROM order_items WHERE order_id = ${line.order_id} AND item_id = ${line.product_id}`,
    };
  },
};

/** Template mix: each DQL template weight 4, each DML template weight 2 (so ~12% DML). */
const TEMPLATE_WEIGHTS = {
  ...Object.fromEntries(Object.keys(DQL).map((k) => [k, 4])),
  ...Object.fromEntries(Object.keys(DML).map((k) => [k, 2])),
};
const DQL_VARIANTS = {
  exact: 38,
  restyled: 12,
  alias: 7,
  swap: 7,
  reverse: 7,
  wrong_filter: 12,
  select_star: 5,
  bad_column: 5,
  syntax_error: 4,
  no_sql: 3,
};
const DML_VARIANTS = { exact: 45, restyled: 15, wrong: 15, other_row: 10, bad_column: 10, no_sql: 5 };
const NO_SQL = '-- I cannot write a query for this question with the tables I was given.';
/** Columns a model might invent for the real ones (bad_column). */
const INVENTED = {
  id: 'identifier',
  name: 'full_name',
  email: 'email_address',
  city: 'town',
  joined_on: 'signup_date',
  category: 'product_category',
  price_cents: 'price',
  stock: 'stock_level',
  customer_id: 'client_id',
  ordered_on: 'order_date',
  status: 'order_status',
  quantity: 'qty',
  unit_price_cents: 'unit_price',
  order_id: 'order_number',
};
const ALIASES = {
  customer_count: 'num_customers',
  order_count: 'orders',
  spent_cents: 'total_spent',
  revenue_cents: 'revenue',
  units_sold: 'total_units',
  total_cents: 'order_total',
  discount_cents: 'discount',
  avg_price_cents: 'average_price',
  month: 'order_month',
};

const pickD = (x, dialect) => (typeof x === 'string' ? x : x[dialect]);

/** The SQL of a spec on one dialect. `lower`: keywords and identifiers in lower case, a comment line, one clause per line, `;`. */
function build(spec, dialect, { lower = false } = {}) {
  const sep = lower ? '\n' : ' ';
  const colText = (c) => (c.as ? `${pickD(c.e, dialect)} AS ${c.as}` : pickD(c.e, dialect));
  const orderText = (o) =>
    `${o.col !== undefined ? (spec.cols[o.col].as ?? pickD(spec.cols[o.col].e, dialect)) : pickD(o.e, dialect)}${o.dir === 'DESC' ? ' DESC' : ''}`;
  const parts = [`SELECT ${spec.cols.map(colText).join(', ')}`, `FROM ${spec.from}`];
  if (spec.where.length > 0) parts.push(`WHERE ${spec.where.map((w) => pickD(w, dialect)).join(' AND ')}`);
  if (spec.group) parts.push(`GROUP BY ${spec.group.map((g) => pickD(g, dialect)).join(', ')}`);
  if (spec.having) parts.push(`HAVING ${spec.having}`);
  if (spec.order) parts.push(`ORDER BY ${spec.order.map(orderText).join(', ')}`);
  if (spec.limit !== undefined) parts.push(`LIMIT ${spec.limit}`);
  const sql = parts.join(sep);
  return lower ? `-- ${spec.nl}\n${lowerOutsideQuotes(sql)};` : sql;
}

/** Lower case outside '…' literals (which hold data and date formats). */
function lowerOutsideQuotes(sql) {
  return sql
    .split(/('(?:[^']|'')*')/)
    .map((part, i) => (i % 2 === 1 ? part : part.toLowerCase()))
    .join('');
}

/** The generated SQL of a DQL variant, per dialect; undefined when the variant does not apply to the spec. */
function dqlVariant(variant, spec) {
  const both = (s, opts) => ({ sqlite: build(s, 'sqlite', opts), postgres: build(s, 'postgres', opts) });
  switch (variant) {
    case 'exact':
      return both(spec);
    case 'restyled':
      return both(spec, { lower: true });
    case 'alias': {
      const i = spec.cols.findIndex((c) => c.as !== undefined || /^(\w+\.)?\w+$/.test(pickD(c.e, 'sqlite')));
      if (i < 0) return undefined;
      const c = spec.cols[i];
      const bare = pickD(c.e, 'sqlite').replace(/^\w+\./, '');
      const cols = spec.cols.map((x, j) =>
        j === i ? { ...x, as: c.as ? (ALIASES[c.as] ?? `${c.as}_value`) : `${bare}_value` } : x,
      );
      return both({ ...spec, cols });
    }
    case 'swap': {
      if (spec.cols.length < 2) return undefined;
      const cols = [spec.cols[1], spec.cols[0], ...spec.cols.slice(2)];
      const order = spec.order?.map((o) => (o.col === 0 ? { ...o, col: 1 } : o.col === 1 ? { ...o, col: 0 } : o));
      return both({ ...spec, cols, ...(order ? { order } : {}) });
    }
    case 'reverse': {
      if (!spec.order) return undefined;
      const [first, ...rest] = spec.order;
      return both({ ...spec, order: [{ ...first, dir: first.dir === 'DESC' ? 'ASC' : 'DESC' }, ...rest] });
    }
    case 'wrong_filter': {
      if (spec.alt) return both({ ...spec, where: spec.alt() });
      if (spec.altHaving) return both({ ...spec, having: spec.altHaving });
      return undefined;
    }
    case 'select_star': {
      if (!spec.star) return undefined;
      return both({
        ...spec,
        cols: [{ e: '*' }],
        order: spec.order?.map((o) => (o.col !== undefined ? { e: pickD(spec.cols[o.col].e, 'sqlite') } : o)),
      });
    }
    case 'bad_column': {
      const i = spec.cols.findIndex((c) => /^(\w+\.)?\w+$/.test(pickD(c.e, 'sqlite')));
      if (i >= 0) {
        const e = pickD(spec.cols[i].e, 'sqlite');
        const bad = e.replace(/\w+$/, (name) => INVENTED[name] ?? `${name}_name`);
        return both({
          ...spec,
          cols: spec.cols.map((c, j) => (j === i ? { ...c, e: bad } : c)),
          order: spec.order?.map((o) => (o.col === i ? { e: bad } : o)),
        });
      }
      const where = spec.where.find((w) => typeof w === 'string' && /^(\w+\.)?\w+ /.test(w));
      if (where === undefined) return undefined;
      const bad = where.replace(
        /^((?:\w+\.)?)(\w+)/,
        (_, prefix, name) => `${prefix}${INVENTED[name] ?? `${name}_name`}`,
      );
      return both({ ...spec, where: spec.where.map((w) => (w === where ? bad : w)) });
    }
    case 'syntax_error': {
      const s = both(spec);
      return { sqlite: s.sqlite.replace(/^SELECT/, 'SELCT'), postgres: s.postgres.replace(/^SELECT/, 'SELCT') };
    }
    case 'no_sql':
      return { sqlite: NO_SQL, postgres: NO_SQL };
    default:
      throw new Error(`unknown variant ${variant}`);
  }
}

function dmlVariant(variant, t) {
  const same = (s) => ({ sqlite: s, postgres: s });
  switch (variant) {
    case 'exact':
      return same(t.golden);
    case 'restyled':
      return same(`-- ${t.nl}\n${lowerOutsideQuotes(t.golden).replace(/ (set|where|values) /g, '\n$1 ')};`);
    case 'wrong':
      return same(t.wrong);
    case 'other_row':
      return same(t.other);
    case 'bad_column':
      return same(t.badColumn);
    case 'no_sql':
      return same(NO_SQL);
    default:
      throw new Error(`unknown variant ${variant}`);
  }
}

/** Parameter domains, read from the example database (so the cases follow its data). */
function readDomains(db) {
  const rows = (sql) => {
    const r = db.exec(sql)[0];
    return r ? r.values : [];
  };
  const col = (sql) => rows(sql).map((r) => r[0]);
  const names = col('SELECT name FROM customers ORDER BY id');
  const fragments = [
    ...new Set(
      names
        .flatMap((n) =>
          n
            .toLowerCase()
            .split(/\s+/)
            .map((w) => w.slice(1, 4)),
        )
        .filter((f) => /^[a-z]{3}$/.test(f)),
    ),
  ].sort();
  return {
    cities: col('SELECT DISTINCT city FROM customers WHERE city IS NOT NULL ORDER BY city'),
    categories: col('SELECT DISTINCT category FROM products ORDER BY category'),
    statuses: col('SELECT DISTINCT status FROM orders ORDER BY status'),
    orderIds: col('SELECT id FROM orders ORDER BY id'),
    orderDates: col('SELECT DISTINCT ordered_on FROM orders ORDER BY ordered_on'),
    joinDates: col('SELECT DISTINCT joined_on FROM customers ORDER BY joined_on'),
    months: col("SELECT DISTINCT strftime('%Y-%m', ordered_on) FROM orders ORDER BY 1"),
    emails: col('SELECT email FROM customers ORDER BY id'),
    products: rows('SELECT id, name FROM products ORDER BY id').map(([id, name]) => ({ id, name })),
    orderLines: rows('SELECT order_id, product_id FROM order_items ORDER BY order_id, product_id').map(
      ([order_id, product_id]) => ({ order_id, product_id }),
    ),
    nextCustomerId: col('SELECT MAX(id) + 1 FROM customers')[0],
    nextProductId: col('SELECT MAX(id) + 1 FROM products')[0],
    nameFragments: fragments,
  };
}

/** The N items, and every scorer's verdict on every case (from sql.js runs of both queries, on a fresh copy each). */
async function generate(sqliteFile) {
  const initSqlJs = require('sql.js');
  const SQL = await initSqlJs({ locateFile: (f) => join(dirname(require.resolve('sql.js')), f) });
  const probe = new SQL.Database(new Uint8Array(readFileSync(sqliteFile)));
  const domains = readDomains(probe);
  probe.close();
  const direct = await openDirectSqlite(sqliteFile);
  const rng = makeRng(SEED);
  const items = [];
  const truthCases = {};
  const mix = {};
  const width = String(N).length;
  for (let i = 0; i < N; i++) {
    const template = weighted(rng, TEMPLATE_WEIGHTS);
    const id = `shop-${String(i + 1).padStart(Math.max(5, width), '0')}`;
    let item;
    let variant;
    if (DQL[template]) {
      const spec = DQL[template](rng, domains);
      variant = weighted(rng, DQL_VARIANTS);
      let generated = dqlVariant(variant, spec);
      if (generated === undefined) {
        variant = 'restyled';
        generated = dqlVariant(variant, spec);
      }
      item = {
        id,
        nl_prompt: spec.nl,
        query_type: 'dql',
        database: 'shop',
        dialects: ['sqlite', 'postgres'],
        golden_sql: { sqlite: [build(spec, 'sqlite')], postgres: [build(spec, 'postgres')] },
        eval_query: {},
        setup_sql: {},
        cleanup_sql: {},
        tags: [template, variant],
        other: { template, variant },
        generated_sql: generated,
      };
    } else {
      const t = DML[template](rng, domains);
      variant = weighted(rng, DML_VARIANTS);
      const both = (list) => (list ? { sqlite: list, postgres: list } : {});
      item = {
        id,
        nl_prompt: t.nl,
        query_type: 'dml',
        database: 'shop',
        dialects: ['sqlite', 'postgres'],
        golden_sql: { sqlite: [t.golden], postgres: [t.golden] },
        eval_query: both(t.evalQueries),
        setup_sql: both(t.setup),
        cleanup_sql: both(t.cleanup),
        tags: [template, variant],
        other: { template, variant },
        generated_sql: dmlVariant(variant, t),
      };
    }
    items.push(item);
    mix[template] ??= {};
    mix[template][variant] = (mix[template][variant] ?? 0) + 1;
    const p = planOf(item, 'sqlite');
    const part = (query) => ({ setup: p.setup, query, evalQueries: p.evalQueries, cleanup: p.cleanup });
    const golden = direct.run(part(p.golden));
    if (!golden.query.ok)
      throw new Error(
        `generator bug: the golden query of ${id} (${template}) fails on SQLite: ${golden.query.error}\n${p.golden}`,
      );
    truthCases[id] = scorerVerdicts(p.generated, golden, direct.run(part(p.generated)));
  }
  const counts = Object.fromEntries(SCORERS.map((s) => [s, { pass: 0, fail: 0 }]));
  for (const v of Object.values(truthCases)) for (const s of SCORERS) counts[s][v[s]]++;
  return { items, truth: { seed: SEED, cases: truthCases, counts, mix, domains } };
}

// --- Databases and configs ---------------------------------------------------------------------------

/** Creates the benchmark's PostgreSQL database when missing, from the server's `postgres` database. */
async function ensurePgDatabase() {
  const { Client } = require('pg');
  const admin = new Client({
    host: pgUrl.host,
    port: pgUrl.port,
    user: pgUrl.user,
    database: 'postgres',
    application_name: 'evallens-bench',
  });
  try {
    await admin.connect();
  } catch (e) {
    die(
      `cannot connect to PostgreSQL at ${pgUrl.host}:${pgUrl.port} (${e.message}); start it with: bash scripts/postgres.sh`,
    );
  }
  try {
    const r = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [pgUrl.database]);
    if (r.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${pgUrl.database}`);
      console.log(`created the PostgreSQL database ${pgUrl.database}`);
    }
  } finally {
    await admin.end();
  }
}

/** Loads the example schema into PostgreSQL with the example's own loader (its SQLite output goes to a throwaway folder). */
function loadPostgres() {
  const scratch = join(OUT, '.pg-load');
  const r = spawnSync(process.execPath, [BUILD_SCRIPT, '--out-dir', scratch, '--postgres', PG_URL], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  rmSync(scratch, { recursive: true, force: true });
  if (r.status !== 0) die(`loading the example schema into PostgreSQL failed:\n${r.stdout}${r.stderr}`);
  return r.stdout.trim().split('\n').pop();
}

/** Every table's rows on both databases, compared: the two engines must start from the same data. */
async function compareData(sqliteFile) {
  const sqlite = await openDirectSqlite(sqliteFile);
  const pg = await openDirectPostgres(PG_URL);
  const plan = (query) => ({ setup: [], query, evalQueries: [], cleanup: [] });
  const problems = [];
  const tables = {};
  try {
    const list = sqlite
      .run(plan("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
      .query.rows.map((r) => r[0]);
    for (const t of list) {
      const sql = `SELECT * FROM ${t} ORDER BY ${t === 'order_items' ? 'order_id, product_id' : 'id'}`;
      const a = sqlite.run(plan(sql)).query;
      const b = (await pg.run(plan(sql))).query;
      tables[t] = a.ok ? a.rows.length : 0;
      if (!a.ok || !b.ok)
        problems.push(`table ${t}: ${a.ok ? '' : `SQLite: ${a.error}`} ${b.ok ? '' : `PostgreSQL: ${b.error}`}`);
      else if (JSON.stringify([a.columns, a.rows]) !== JSON.stringify([b.columns, b.rows]))
        problems.push(`table ${t}: the rows differ between SQLite and PostgreSQL`);
    }
  } finally {
    await pg.close();
  }
  return { tables, problems };
}

const yamlStr = (v) => JSON.stringify(v);
function writeConfigs(items, truth) {
  writeFileSync(join(OUT, 'nl2sql.json'), `${JSON.stringify(items, null, 1)}\n`);
  writeFileSync(join(OUT, 'truth.json'), `${JSON.stringify(truth, null, 1)}\n`);
  writeFileSync(
    join(OUT, 'db-sqlite.yaml'),
    [
      '# Generated by bench/nl2sql.mjs: a copy of the example database (examples/nl2sql/db/shop.sqlite).',
      'db_type: sqlite',
      'dialect: sqlite',
      'database_name: shop',
      'database_path: db',
      // The items name the database "shop"; the copy keeps the example's .sqlite (EvalBench's default is .db).
      'extension: .sqlite',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(OUT, 'db-postgres.yaml'),
    [
      `# Generated by bench/nl2sql.mjs: examples/nl2sql/setup/shop/sqlite/setup.sql loaded into ${pgUrl.host}:${pgUrl.port}/${pgUrl.database}.`,
      'db_type: postgres',
      'dialect: postgres',
      `database_name: ${pgUrl.database}`,
      `host: ${pgUrl.host}`,
      `port: ${pgUrl.port}`,
      `user_name: ${pgUrl.user}`,
      '',
    ].join('\n'),
  );
  for (const dialect of ['sqlite', 'postgres']) {
    writeFileSync(
      join(OUT, `${dialect}.eval.yaml`),
      [
        `# Generated by bench/nl2sql.mjs: ${N} NL2SQL cases on the example shop database (${dialect}), all seven SQL scorers.`,
        'dataset_config: nl2sql.json',
        'dataset_format: evalbench-standard-format',
        'database_configs:',
        `  - db-${dialect}.yaml`,
        'dialects:',
        `  - ${dialect}`,
        'query_types:',
        '  - dql',
        '  - dml',
        // The items name the database "shop": on PostgreSQL it is the benchmark's own database.
        ...(dialect === 'postgres' ? ['db_name_overrides:', '  postgres:', `    shop: ${pgUrl.database}`] : []),
        'scorers:',
        '  exact_match: null',
        '  recall_match: null',
        '  set_match: null',
        '  executable_sql: null',
        '  returned_sql: null',
        '  regexp_matcher:',
        `    regexp_string_list: [${REGEXP.regexp_string_list.map((p) => yamlStr(p)).join(', ')}]`,
        `    invert_results: ${REGEXP.invert_results}`,
        '  hybrid_xa_judge: null',
        '',
      ].join('\n'),
    );
  }
}

/** The kinds of process a round runs. */
const KINDS = [
  { id: 'evallens-sqlite', dialect: 'sqlite', label: 'EvalLens, SQLite' },
  { id: 'evallens-postgres', dialect: 'postgres', label: 'EvalLens, PostgreSQL' },
  { id: 'direct-sqlite', dialect: 'sqlite', via: 'direct', label: 'database alone (sql.js), SQLite' },
  { id: 'direct-postgres', dialect: 'postgres', via: 'direct', label: 'database alone (pg), PostgreSQL' },
  { id: 'engine-sqlite', dialect: 'sqlite', via: 'engine', label: "EvalLens's SQL engine alone, SQLite" },
  { id: 'engine-postgres', dialect: 'postgres', via: 'engine', label: "EvalLens's SQL engine alone, PostgreSQL" },
];

function commandOf(kind) {
  if (!kind.via) {
    return [
      process.execPath,
      CLI,
      'run',
      join(OUT, `${kind.dialect}.eval.yaml`),
      '--reporter',
      'json',
      '--out',
      join(OUT, `report-${kind.dialect}.json`),
      '--runs-dir',
      join(OUT, `runs-${kind.dialect}`),
    ];
  }
  const argv = [
    process.execPath,
    ...(kind.via === 'engine' ? ['--import', 'tsx'] : []),
    join(HERE, 'nl2sql-replay.mjs'),
    '--via',
    kind.via,
    '--dialect',
    kind.dialect,
    '--dataset',
    join(OUT, 'nl2sql.json'),
    '--truth',
    join(OUT, 'truth.json'),
    '--out',
    join(OUT, `replay-${kind.id}.json`),
  ];
  if (kind.via === 'engine') argv.push('--db-config', join(OUT, `db-${kind.dialect}.yaml`));
  else if (kind.dialect === 'sqlite') argv.push('--sqlite-file', join(OUT, 'db', 'shop.sqlite'));
  else argv.push('--pg-url', PG_URL);
  return argv;
}
const shown = (argv) => argv.map((a, i) => (i === 0 ? 'node' : a.startsWith(ROOT) ? relative(ROOT, a) : a)).join(' ');

async function runKind(kind, truth) {
  const argv = commandOf(kind);
  if (!kind.via) {
    const report = join(OUT, `report-${kind.dialect}.json`);
    const runsDir = join(OUT, `runs-${kind.dialect}`);
    rmSync(report, { force: true });
    rmSync(runsDir, { recursive: true, force: true });
    const m = await measure(argv, { cwd: ROOT, scratch: OUT });
    const problems = [];
    // 0: every case passed; 1: some failed (expected: the data has misses); anything else is a failure.
    if (m.exitCode !== 0 && m.exitCode !== 1)
      problems.push(`exited with ${m.exitCode}: ${m.stderr.trim().split('\n').slice(-5).join(' | ')}`);
    const check = existsSync(report) ? await checkReport(report, truth) : { problems: ['no report was written'] };
    rmSync(runsDir, { recursive: true, force: true });
    return {
      kind: kind.id,
      wallMs: round(m.wallMs, 1),
      peakRssMb: round(m.peakRssMb, 1),
      cpuS: round(m.cpuS, 2),
      exitCode: m.exitCode,
      ...check,
      problems: [...problems, ...check.problems],
    };
  }
  const out = join(OUT, `replay-${kind.id}.json`);
  rmSync(out, { force: true });
  const m = await measure(argv, { cwd: ROOT, scratch: OUT });
  const problems = [];
  if (m.exitCode !== 0)
    problems.push(`exited with ${m.exitCode}: ${m.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  const r = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : undefined;
  if (r === undefined) problems.push('no replay summary was written');
  else {
    if (r.cases !== N) problems.push(`${r.cases} cases replayed, expected ${N}`);
    if (r.mismatchCount > 0)
      problems.push(
        `${r.mismatchCount} verdicts differ from the ground truth, e.g. ${r.mismatches.slice(0, 5).join('; ')}`,
      );
  }
  return {
    kind: kind.id,
    wallMs: round(m.wallMs, 1),
    peakRssMb: round(m.peakRssMb, 1),
    cpuS: round(m.cpuS, 2),
    exitCode: m.exitCode,
    loopMs: r?.loopMs,
    openMs: r?.openMs,
    plans: r?.plans,
    statements: r?.statements,
    counts: r?.counts,
    problems,
  };
}

/**
 * Reads the JSON report line by line (the reporter writes one case or result per line): every result
 * must be the ground truth's verdict for its case and scorer; counts per scorer and status, the sum of
 * the results' own durationMs (the scorers' time) and the run's durationMs.
 */
async function checkReport(file, truth) {
  const counts = {};
  const caseIds = new Set();
  let results = 0;
  let scorerMs = 0;
  let caseMs = 0;
  const mismatches = [];
  const { durationMs } = await readReport(file, {
    onCase: (c) => {
      caseMs += c.durationMs ?? 0;
    },
    onResult: (r) => {
      results += 1;
      scorerMs += r.durationMs ?? 0;
      caseIds.add(r.caseId);
      counts[r.scorer] ??= {};
      counts[r.scorer][r.status] = (counts[r.scorer][r.status] ?? 0) + 1;
      const want = truth.cases[r.caseId]?.[r.scorer];
      if (want !== r.status)
        mismatches.push(
          `${r.caseId} ${r.scorer}: ${r.status}, ground truth ${want ?? 'none'}${r.reason ? ` (${String(r.reason).slice(0, 160)})` : ''}`,
        );
    },
  });
  const problems = [];
  const expected = N * SCORERS.length;
  if (results !== expected) problems.push(`${results} results, expected ${N} × ${SCORERS.length} = ${expected}`);
  if (caseIds.size !== N) problems.push(`${caseIds.size} distinct cases, expected ${N}`);
  for (const s of SCORERS) if (!counts[s]) problems.push(`no results for scorer ${s}`);
  if (typeof durationMs !== 'number' || Number.isNaN(durationMs)) problems.push('the report has no durationMs');
  if (mismatches.length > 0)
    problems.push(
      `${mismatches.length} results differ from the ground truth, e.g. ${mismatches.slice(0, 5).join('; ')}`,
    );
  return { results, counts, runMs: durationMs, scorerMs: round(scorerMs, 1), caseMs: round(caseMs, 1), problems };
}

// --- Statistics -------------------------------------------------------------------------------------

// --- Main -------------------------------------------------------------------------------------------

if (!existsSync(GNU_TIME)) die(`${GNU_TIME} (GNU time) is missing; install it with: apt-get install -y time`);
if (!existsSync(CLI)) die(`${CLI} is missing; build it first: npm run build`);
if (!existsSync(BUILD_SCRIPT) || !existsSync(EXAMPLE_SCHEMA))
  die(
    'the example database sources (scripts/build-example-db.mjs, examples/nl2sql/setup/shop/sqlite/setup.sql) are missing',
  );
if (!existsSync(EXAMPLE_DB))
  die(`${relative(ROOT, EXAMPLE_DB)} is missing; build it first: node scripts/build-example-db.mjs`);
if (!existsSync(join(ROOT, 'node_modules', '.bin', 'tsx'))) die('tsx (a dev dependency) is missing: run npm install');
mkdirSync(join(OUT, 'db'), { recursive: true });

copyFileSync(EXAMPLE_DB, join(OUT, 'db', 'shop.sqlite'));
await ensurePgDatabase();
const loaded = loadPostgres();
const data = await compareData(join(OUT, 'db', 'shop.sqlite'));
console.log(
  `databases: ${relative(ROOT, EXAMPLE_DB)} copied to ${relative(ROOT, join(OUT, 'db', 'shop.sqlite'))}; ${loaded}`,
);
console.log(
  `  tables ${Object.entries(data.tables)
    .map(([t, n]) => `${t} ${n}`)
    .join(', ')}; ${data.problems.length ? `DIFFER: ${data.problems.join('; ')}` : 'the same rows on both engines'}`,
);
if (data.problems.length) die('the two databases do not hold the same data; nothing was measured');

const generatedAt = performance.now();
const { items, truth } = await generate(join(OUT, 'db', 'shop.sqlite'));
writeConfigs(items, truth);
console.log(
  `generated ${N} cases in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s (${relative(ROOT, join(OUT, 'nl2sql.json'))}, ground truth in truth.json)`,
);
console.log(`  ground truth, passes per scorer: ${SCORERS.map((s) => `${s} ${truth.counts[s].pass}`).join(', ')}`);
if (args['generate-only']) process.exit(0);

const machine = {
  date: new Date().toISOString(),
  nproc: capture('nproc', []),
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  totalMemGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  node: process.version,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  postgres: capture('psql', [
    '-X',
    '-tA',
    '-h',
    pgUrl.host,
    '-p',
    String(pgUrl.port),
    '-U',
    pgUrl.user,
    '-d',
    pgUrl.database,
    '-c',
    'SHOW server_version',
  ]),
  sqlJs: JSON.parse(readFileSync(join(ROOT, 'node_modules', 'sql.js', 'package.json'), 'utf8')).version,
  pg: JSON.parse(readFileSync(join(ROOT, 'node_modules', 'pg', 'package.json'), 'utf8')).version,
  loadAvgAtStart: os.loadavg().map((x) => Math.round(x * 100) / 100),
  evallens: capture(process.execPath, [CLI, '--version']),
  evallensCommit: `${capture('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'])}${capture('git', ['-C', ROOT, 'status', '--porcelain']).length > 0 ? ' + uncommitted changes' : ''}`,
};

const runs = [];
console.log(
  `nl2sql bench: ${N} cases × ${SCORERS.length} scorers, ${ROUNDS} rounds (+${WARMUP} warm-up), ${KINDS.length} processes per round`,
);
for (let r = 0; r < WARMUP + ROUNDS; r++) {
  const warm = r < WARMUP;
  const tag = warm ? `warm-up ${r + 1}` : `round ${r - WARMUP + 1}/${ROUNDS}`;
  const order = KINDS.map((_, i) => KINDS[(i + r) % KINDS.length]);
  for (const kind of order) {
    const run = { ...(await runKind(kind, truth)), round: warm ? null : r - WARMUP + 1, warmup: warm };
    runs.push(run);
    const inner =
      run.runMs !== undefined
        ? `${(run.runMs / 1000).toFixed(2)} s run`
        : run.loopMs !== undefined
          ? `${(run.loopMs / 1000).toFixed(2)} s loop`
          : '';
    console.log(
      `  ${tag}: ${kind.label.padEnd(40)} ${(run.wallMs / 1000).toFixed(2).padStart(6)} s wall, ${inner.padStart(12)}, ${run.peakRssMb.toFixed(0).padStart(4)} MB${run.problems.length ? `  PROBLEM: ${run.problems.join('; ')}` : ''}`,
    );
  }
}
machine.loadAvgAtEnd = os.loadavg().map((x) => Math.round(x * 100) / 100);

// --- Figures ----------------------------------------------------------------------------------------

const measured = runs.filter((r) => !r.warmup);
const of = (id) => measured.filter((r) => r.kind === id);
const summary = {};
for (const k of KINDS) {
  const rs = of(k.id);
  summary[k.id] = {
    wallMs: stat(rs, 'wallMs'),
    peakRssMb: stat(rs, 'peakRssMb'),
    cpuS: stat(rs, 'cpuS'),
    runMs: stat(rs, 'runMs'),
    scorerMs: stat(rs, 'scorerMs'),
    loopMs: stat(rs, 'loopMs'),
  };
}
const engines = {};
for (const dialect of ['sqlite', 'postgres']) {
  const e = summary[`evallens-${dialect}`];
  const db = summary[`direct-${dialect}`].loopMs.median;
  const layer = summary[`engine-${dialect}`].loopMs.median;
  const run = e.runMs.median;
  engines[dialect] = {
    casesPerSecWall: N / (e.wallMs.median / 1000),
    casesPerSecRun: N / (run / 1000),
    evalsPerSecWall: (N * SCORERS.length) / (e.wallMs.median / 1000),
    msPerCaseRun: run / N,
    split: {
      runMs: run,
      databaseMs: db,
      engineLayerMs: layer,
      engineOverheadMs: layer - db,
      restOfRunMs: run - layer,
      scorersMs: e.scorerMs.median,
      outsideRunMs: e.wallMs.median - run,
      evallensMs: run - db,
    },
    // The same split per round (each round's replays against that round's run), for its spread.
    databaseSharePerRound: measured
      .filter((r) => r.kind === `evallens-${dialect}`)
      .map((r) => {
        const d = measured.find((x) => x.kind === `direct-${dialect}` && x.round === r.round);
        return d && r.runMs ? d.loopMs / r.runMs : undefined;
      })
      .filter((x) => x !== undefined),
    dbMsPerPlan: db / (2 * N),
    layerMsPerPlan: layer / (2 * N),
  };
}

// The engines must agree: same passes per scorer (and per case) in every round.
const problems = runs.flatMap((r) =>
  r.problems.map((p) => `${r.kind} ${r.warmup ? 'warm-up' : `round ${r.round}`}: ${p}`),
);
for (const r of runs.filter((x) => x.kind === 'evallens-sqlite')) {
  const other = runs.find((x) => x.kind === 'evallens-postgres' && x.round === r.round && x.warmup === r.warmup);
  if (!other) continue;
  for (const s of SCORERS) {
    const a = r.counts?.[s]?.pass ?? 0;
    const b = other.counts?.[s]?.pass ?? 0;
    if (a !== b)
      problems.push(`${r.warmup ? 'warm-up' : `round ${r.round}`}: ${s} passes ${a} on SQLite, ${b} on PostgreSQL`);
  }
}
const passes = (id) => Object.fromEntries(SCORERS.map((s) => [s, of(id)[0]?.counts?.[s]?.pass]));

// --- Report -----------------------------------------------------------------------------------------

const sec = (ms) => (ms / 1000).toFixed(2);
const spread = (st, f) => (st ? `${f(st.median)} (${f(st.min)}–${f(st.max)})` : 'n/a');
const fmtInt = (x) => Math.round(x).toLocaleString('en-US');
const pct = (part, whole) => `${Math.round((100 * part) / whole)}%`;
const S = summary;
const E = engines;
const lines = [];
lines.push(`#### NL2SQL — ${machine.date.slice(0, 10)}`);
lines.push('');
lines.push(
  `Machine: ${machine.nproc} cores (${machine.cpuModel}), ${machine.totalMemGiB} GiB RAM, ${machine.platform}, Node ${machine.node}. EvalLens ${machine.evallens} (${machine.evallensCommit}); sql.js ${machine.sqlJs}, pg ${machine.pg}, PostgreSQL ${machine.postgres} (${pgUrl.host}:${pgUrl.port}, same machine). ` +
    `Load average at start ${machine.loadAvgAtStart.join(' / ')}, at end ${machine.loadAvgAtEnd.join(' / ')}.`,
);
lines.push(
  `Data: ${fmtInt(N)} evalbench-standard-format cases (${Object.values(truth.mix).reduce((a, m) => a + Object.values(m).reduce((x, y) => x + y, 0), 0) === N ? '' : '?'}${fmtInt(items.filter((i) => i.query_type === 'dql').length)} dql, ${fmtInt(items.filter((i) => i.query_type === 'dml').length)} dml) on the example shop database (${Object.entries(
    data.tables,
  )
    .map(([t, n]) => `${t} ${n}`)
    .join(
      ', ',
    )} rows), ${SCORERS.length} SQL scorers each: ${fmtInt(N * SCORERS.length)} results per run, 2 × ${fmtInt(N)} query plans. ` +
    `${ROUNDS} measured rounds after ${WARMUP} warm-up, the ${KINDS.length} processes rotating; medians with (min–max). Whole processes: wall time around the spawn, peak RSS and CPU from GNU time. "Run" is the report's own \`durationMs\`.`,
);
lines.push('');
lines.push('| | SQLite | PostgreSQL |');
lines.push('|---|---:|---:|');
lines.push(
  `| wall time, whole process, s | ${spread(S['evallens-sqlite'].wallMs, sec)} | ${spread(S['evallens-postgres'].wallMs, sec)} |`,
);
lines.push(
  `| **cases / s, whole process** | **${fmtInt(E.sqlite.casesPerSecWall)}** | **${fmtInt(E.postgres.casesPerSecWall)}** |`,
);
lines.push(
  `| run (report \`durationMs\`), s | ${spread(S['evallens-sqlite'].runMs, sec)} | ${spread(S['evallens-postgres'].runMs, sec)} |`,
);
lines.push(
  `| **cases / s, run** | **${fmtInt(E.sqlite.casesPerSecRun)}** | **${fmtInt(E.postgres.casesPerSecRun)}** |`,
);
lines.push(
  `| scorer evaluations / s, whole process | ${fmtInt(E.sqlite.evalsPerSecWall)} | ${fmtInt(E.postgres.evalsPerSecWall)} |`,
);
lines.push(
  `| cases / s of the database alone (the replay's loop), for scale | ${fmtInt(N / (E.sqlite.split.databaseMs / 1000))} | ${fmtInt(N / (E.postgres.split.databaseMs / 1000))} |`,
);
lines.push(
  `| peak RSS, MB | ${spread(S['evallens-sqlite'].peakRssMb, (x) => x.toFixed(0))} | ${spread(S['evallens-postgres'].peakRssMb, (x) => x.toFixed(0))} |`,
);
lines.push(
  `| CPU time of the EvalLens process (user+sys), s | ${spread(S['evallens-sqlite'].cpuS, (x) => x.toFixed(2))} | ${spread(S['evallens-postgres'].cpuS, (x) => x.toFixed(2))} (the server's CPU not included) |`,
);
lines.push('');
lines.push('Where the run goes (medians; the database replays are separate processes, timed around their loop only):');
lines.push('');
lines.push('| | SQLite | PostgreSQL |');
lines.push('|---|---:|---:|');
const row = (label, f) => lines.push(`| ${label} | ${f('sqlite')} | ${f('postgres')} |`);
row('run (report `durationMs`), s', (d) => sec(E[d].split.runMs));
const shareRange = (d) =>
  `per round ${Math.round(100 * Math.min(...E[d].databaseSharePerRound))}–${Math.round(100 * Math.max(...E[d].databaseSharePerRound))}%`;
row(
  '**database**: the same 2 × N plans run directly, same isolation, s',
  (d) =>
    `**${sec(E[d].split.databaseMs)}** (${pct(E[d].split.databaseMs, E[d].split.runMs)} of the run, ${shareRange(d)}; ${E[d].dbMsPerPlan.toFixed(3)} ms per plan)`,
);
row(
  '**EvalLens** = run − database, s',
  (d) => `**${sec(E[d].split.evallensMs)}** (${pct(E[d].split.evallensMs, E[d].split.runMs)})`,
);
row(
  "of which EvalLens's SQL engine layer (engine replay − database), s",
  (d) =>
    `${sec(E[d].split.engineOverheadMs)} (engine replay ${sec(E[d].split.engineLayerMs)}: ${E[d].layerMsPerPlan.toFixed(3)} ms per plan)`,
);
row('of which the rest: dataset, runner, scorers, recording (run − engine replay), s', (d) =>
  sec(E[d].split.restOfRunMs),
);
row("the scorers' own time, summed from the results' `durationMs`, s", (d) => sec(E[d].split.scorersMs));
row('outside the run: start-up, config load, opening the database, report (wall − run), s', (d) =>
  sec(E[d].split.outsideRunMs),
);
lines.push('');
lines.push('<details><summary>The replay processes (medians)</summary>');
lines.push('');
lines.push('| process | loop s | wall s | peak RSS MB |');
lines.push('|---|---:|---:|---:|');
for (const k of KINDS.filter((x) => x.via))
  lines.push(
    `| ${k.label} | ${spread(S[k.id].loopMs, sec)} | ${spread(S[k.id].wallMs, sec)} | ${spread(S[k.id].peakRssMb, (x) => x.toFixed(0))} |`,
  );
lines.push('');
lines.push('</details>');
lines.push('');
lines.push(
  'Verdicts (passes of each scorer; ground truth computed by the generator from sql.js results with plain JS, checked per case):',
);
lines.push('');
lines.push(
  '| scorer | ground truth | EvalLens SQLite | EvalLens PostgreSQL | database replay SQLite | database replay PostgreSQL |',
);
lines.push('|---|---:|---:|---:|---:|---:|');
const ps = passes('evallens-sqlite');
const pp = passes('evallens-postgres');
const rs = Object.fromEntries(SCORERS.map((s) => [s, of('direct-sqlite')[0]?.counts?.[s]?.pass]));
const rp = Object.fromEntries(SCORERS.map((s) => [s, of('direct-postgres')[0]?.counts?.[s]?.pass]));
for (const s of SCORERS)
  lines.push(
    `| ${s} | ${fmtInt(truth.counts[s].pass)} | ${ps[s] === undefined ? 'n/a' : fmtInt(ps[s])} | ${pp[s] === undefined ? 'n/a' : fmtInt(pp[s])} | ${rs[s] === undefined ? 'n/a' : fmtInt(rs[s])} | ${rp[s] === undefined ? 'n/a' : fmtInt(rp[s])} |`,
  );
lines.push('');
lines.push(
  problems.length
    ? `**Problems:**\n${problems
        .slice(0, 40)
        .map((p) => `- ${p}`)
        .join('\n')}${problems.length > 40 ? `\n- … and ${problems.length - 40} more` : ''}`
    : `Checks: every EvalLens run had ${fmtInt(N)} × ${SCORERS.length} results covering every case, each equal to the ground truth; SQLite and PostgreSQL gave the same passes per scorer; every replay's own verdicts equalled the ground truth; in every round.`,
);
lines.push('');
lines.push('<details><summary>The commands each round runs</summary>');
lines.push('');
lines.push('```sh');
for (const k of KINDS) lines.push(shown(commandOf(k)));
lines.push('```');
lines.push('');
lines.push('</details>');
lines.push('');
lines.push('<details><summary>Every run</summary>');
lines.push('');
lines.push('| round | process | wall s | run / loop s | CPU s | peak RSS MB |');
lines.push('|---|---|---:|---:|---:|---:|');
for (const r of runs)
  lines.push(
    `| ${r.warmup ? 'warm-up' : r.round} | ${KINDS.find((k) => k.id === r.kind).label} | ${sec(r.wallMs)} | ${r.runMs !== undefined ? sec(r.runMs) : r.loopMs !== undefined ? sec(r.loopMs) : ''} | ${r.cpuS.toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`,
  );
lines.push('');
lines.push('</details>');
const markdown = `${lines.join('\n')}\n`;

writeFileSync(join(OUT, 'results.md'), markdown);
writeFileSync(
  join(OUT, 'results.json'),
  `${JSON.stringify(
    {
      machine,
      settings: { cases: N, rounds: ROUNDS, warmup: WARMUP, cli: relative(ROOT, CLI), pgUrl: PG_URL, seed: SEED },
      commands: Object.fromEntries(KINDS.map((k) => [k.id, shown(commandOf(k))])),
      data: {
        tables: data.tables,
        dql: items.filter((i) => i.query_type === 'dql').length,
        dml: items.filter((i) => i.query_type === 'dml').length,
        mix: truth.mix,
      },
      groundTruth: truth.counts,
      summary,
      engines,
      problems,
      runs,
    },
    null,
    2,
  )}\n`,
);
console.log('');
console.log(markdown);
console.log(`written: ${relative(ROOT, join(OUT, 'results.md'))}, ${relative(ROOT, join(OUT, 'results.json'))}`);
process.exitCode = problems.length ? 1 : 0;
