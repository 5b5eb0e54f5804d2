-- The shop of the NL2SQL example: four tables and 51 rows, in SQL that builds the same database on
-- SQLite and on PostgreSQL. It sits where EvalBench's setup_directory layout wants it
-- (<setup_directory>/<database>/<db_type>/setup.sql): shop.eval.yaml has `setup_directory: setup`,
-- so a run builds the SQLite database from this file, in memory, with nothing to prepare.
-- scripts/build-example-db.mjs turns it into db/shop.sqlite (a file to look at), and with
-- --postgres <url> loads it into PostgreSQL (dropping these tables first), for shop-postgres.eval.yaml.
--
-- EvalBench cuts a setup file at every semicolon, comments included, so no comment here has one.
--
-- Portable on purpose: money is INTEGER cents (SQLite would store NUMERIC as a double and sum it
-- with rounding errors that PostgreSQL's exact numeric does not have), dates are ISO text in a DATE
-- column (SQLite keeps them as text, PostgreSQL as dates, both give back '2024-03-05'), and there
-- are no booleans (SQLite has none).

CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  city TEXT,
  joined_on DATE NOT NULL
);

CREATE TABLE products (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  category TEXT NOT NULL,
  price_cents INTEGER NOT NULL,
  stock INTEGER NOT NULL
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  ordered_on DATE NOT NULL,
  status TEXT NOT NULL
);

CREATE TABLE order_items (
  order_id INTEGER NOT NULL REFERENCES orders (id),
  product_id INTEGER NOT NULL REFERENCES products (id),
  quantity INTEGER NOT NULL,
  unit_price_cents INTEGER NOT NULL,
  PRIMARY KEY (order_id, product_id)
);

-- Two customers have no city, and Hedy has not ordered anything yet.
INSERT INTO customers (id, name, email, city, joined_on) VALUES
  (1, 'Ada Lovelace', 'ada@example.com', 'London', '2023-01-15'),
  (2, 'Grace Hopper', 'grace@example.com', 'New York', '2023-02-03'),
  (3, 'Alan Turing', 'alan@example.com', 'Manchester', '2023-03-21'),
  (4, 'Katherine Johnson', 'katherine@example.com', NULL, '2023-05-09'),
  (5, 'Linus Torvalds', 'linus@example.com', 'Portland', '2023-08-30'),
  (6, 'Barbara Liskov', 'barbara@example.com', 'Boston', '2024-01-12'),
  (7, 'Edsger Dijkstra', 'edsger@example.com', NULL, '2024-02-28'),
  (8, 'Hedy Lamarr', 'hedy@example.com', 'London', '2024-04-02');

-- The Mountain Notebook is out of stock, and nobody has bought the Brass Kettle.
INSERT INTO products (id, name, category, price_cents, stock) VALUES
  (1, 'Green Tea', 'tea', 1200, 40),
  (2, 'Earl Grey', 'tea', 1000, 25),
  (3, 'Oolong', 'tea', 1800, 12),
  (4, 'Stoneware Mug', 'kitchen', 900, 60),
  (5, 'Brass Kettle', 'kitchen', 4500, 5),
  (6, 'Tea Strainer', 'kitchen', 650, 80),
  (7, 'Mountain Notebook', 'stationery', 750, 0),
  (8, 'Fountain Pen', 'stationery', 3200, 14);

INSERT INTO orders (id, customer_id, ordered_on, status) VALUES
  (1, 1, '2024-01-05', 'delivered'),
  (2, 2, '2024-01-17', 'delivered'),
  (3, 1, '2024-02-02', 'delivered'),
  (4, 3, '2024-02-11', 'cancelled'),
  (5, 4, '2024-02-20', 'delivered'),
  (6, 5, '2024-03-01', 'shipped'),
  (7, 2, '2024-03-08', 'shipped'),
  (8, 6, '2024-03-15', 'delivered'),
  (9, 7, '2024-03-22', 'pending'),
  (10, 1, '2024-03-29', 'pending'),
  (11, 3, '2024-04-04', 'shipped'),
  (12, 6, '2024-04-10', 'pending');

-- Unit prices are what the customer paid: prices have changed since some orders.
INSERT INTO order_items (order_id, product_id, quantity, unit_price_cents) VALUES
  (1, 1, 2, 1100),
  (1, 4, 1, 900),
  (2, 2, 3, 1000),
  (2, 6, 1, 650),
  (3, 3, 1, 1800),
  (3, 7, 2, 750),
  (4, 8, 1, 3200),
  (5, 1, 1, 1200),
  (5, 2, 1, 1000),
  (5, 4, 2, 900),
  (6, 8, 1, 3200),
  (6, 7, 3, 750),
  (7, 3, 2, 1800),
  (8, 1, 4, 1200),
  (8, 6, 2, 650),
  (9, 4, 1, 900),
  (9, 2, 2, 1000),
  (10, 7, 1, 750),
  (10, 8, 1, 3200),
  (11, 1, 1, 1200),
  (11, 3, 1, 1800),
  (12, 6, 1, 650),
  (12, 4, 3, 900);
