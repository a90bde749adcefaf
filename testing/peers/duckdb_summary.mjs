// Scan summary computed by DuckDB (@duckdb/node-api): types come from DuckDB's parquet_schema()
// (the file's own SchemaElements), count / nulls / min / max from one aggregate query that reads
// every selected column, and the values are written by summary_format.mjs.
// CSV files (summarize(file, {csv})) are read with read_csv and DuckDB's own sniffing and type
// inference (or the types given, csv_options.mjs); their types come from DESCRIBE.
import { DuckDBInstance } from '@duckdb/node-api';
import { duckCsvSource, specTypeOfDuck } from './csv_options.mjs';
import {
  formatBinary, formatDate, formatDecimal, formatFloat32, formatFloat64, formatInteger,
  formatTime, formatTimestamp, specTypeOf, summaryLine, truncateInteger, decimalTextToUnscaled,
} from './summary_format.mjs';

export function sqlString(text) {
  return `'${String(text).replaceAll("'", "''")}'`;
}

export function sqlIdentifier(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

// Top-level fields of parquet_schema() rows (pre-order, with num_children), in file order.
function topLevelElements(schemaRows) {
  const fields = [];
  let index = 1;
  const skipSubtree = () => {
    const children = Number(schemaRows[index].num_children ?? 0);
    index += 1;
    for (let i = 0; i < children; i++) skipSubtree();
  };
  const rootChildren = Number(schemaRows[0].num_children ?? 0);
  for (let i = 0; i < rootChildren && index < schemaRows.length; i++) {
    const row = schemaRows[index];
    fields.push({
      name: row.name,
      physical: row.type,
      repetition: row.repetition_type,
      numChildren: Number(row.num_children ?? 0),
      converted: row.converted_type,
      logical: row.logical_type,
      scale: row.scale === null ? null : Number(row.scale),
      precision: row.precision === null ? null : Number(row.precision),
    });
    skipSubtree();
  }
  return fields;
}

// The SQL expression whose min/max is taken: DuckDB's own ordering already matches the spec's
// (bytewise strings and blobs, numeric order) once UUIDs and intervals are turned back into the
// bytes the file stores.
function valueExpression(column, duckType, type) {
  if (type === 'timestamp[ns]' && duckType === 'TIMESTAMP') {
    // INT96, which DuckDB reads as microseconds: back to the spec's nanoseconds, wrapping at 64
    // bits like the spec's arithmetic, so that min and max order the wrapped values.
    const two63 = '9223372036854775808::HUGEINT';
    const two64 = '18446744073709551616::HUGEINT';
    return `(((epoch_us(${column})::HUGEINT * 1000 + ${two63}) % ${two64} + ${two64}) % ${two64}` +
      ` - ${two63})::BIGINT`;
  }
  if (duckType === 'UUID') return `unhex(replace(${column}::VARCHAR, '-', ''))`;
  if (duckType === 'JSON') return `${column}::VARCHAR`;
  if (duckType === 'INTERVAL') {
    // Parquet INTERVAL: three little-endian uint32 (months, days, milliseconds).
    const le32 = (e) => `printf('%02x%02x%02x%02x', (${e}) & 255, ((${e}) >> 8) & 255, ` +
      `((${e}) >> 16) & 255, ((${e}) >> 24) & 255)`;
    return `unhex(${le32(`datepart('month', ${column}) + 12 * datepart('year', ${column})`)} || ` +
      `${le32(`datepart('day', ${column})`)} || ${le32(`epoch_ms(${column}) - ` +
      `epoch_ms(to_months(12 * datepart('year', ${column}) + datepart('month', ${column})) + ` +
      `to_days(datepart('day', ${column})))`)})`;
  }
  return column;
}

function isFloatType(type) {
  return type === 'float16' || type === 'float32' || type === 'float64';
}

// One DuckDB value (from getRows()) -> the spec text for `type`.
export function formatDuckValue(value, type, duckType) {
  if (value === null || value === undefined) return null;
  if (type === 'float64') return formatFloat64(value);
  if (type === 'float32' || type === 'float16') return formatFloat32(value);
  if (type === 'bool') return value ? 'true' : 'false';
  if (type === 'string') return String(value);
  if (type === 'binary') return formatBinary(value.bytes);
  if (type === 'date') return formatDate(value.days);
  if (type.startsWith('decimal')) {
    const scale = Number(/,(\d+)\)/.exec(type)[1]);
    if (typeof value === 'number') {
      // DuckDB reads DECIMAL wider than 38 digits as DOUBLE: inexact (documented gap).
      return formatDecimal(decimalTextToUnscaled(value.toFixed(scale), scale), scale);
    }
    return formatDecimal(value.value, value.scale);
  }
  if (type.startsWith('timestamp')) {
    if (typeof value === 'bigint') return formatTimestamp(value, 'ns'); // INT96, see above
    if ('nanos' in value) return formatTimestamp(value.nanos, 'ns');
    if ('micros' in value) return formatTimestamp(value.micros, 'us');
    if ('millis' in value) return formatTimestamp(value.millis, 'ms');
    return formatTimestamp(value.seconds, 's');
  }
  if (type.startsWith('time')) {
    if ('nanos' in value) return formatTime(value.nanos, 'ns');
    if ('offset' in value) return formatTime(value.micros - BigInt(value.offset) * 1000000n, 'us');
    return formatTime(value.micros, 'us');
  }
  // Integers: number, bigint or (for HUGEINT-like) bigint.
  return formatInteger(truncateInteger(value, type));
}

export class DuckDBSummary {
  static async create({ threads } = {}) {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    if (threads) await connection.run(`SET threads = ${Number(threads)}`);
    return new DuckDBSummary(instance, connection);
  }

  constructor(instance, connection) {
    this.instance = instance;
    this.connection = connection;
  }

  async rows(sql) {
    const reader = await this.connection.runAndReadAll(sql);
    return reader.getRowObjects();
  }

  // Returns the summary line for `file`, restricted to `columns` (names) when given. With `csv`
  // (an options object of csv_options.mjs, {} for DuckDB's defaults) the file is read as CSV.
  // With `where` (SQL), only the rows it keeps are summarised.
  async summarize(file, { columns, csv, where } = {}) {
    if (csv) return this.summarizeCsv(file, { columns, csv });
    const read = `read_parquet(${sqlString(file)})`;
    const source = where ? `(SELECT * FROM ${read} WHERE ${where})` : read;
    const schemaRows = await this.rows(`SELECT * FROM parquet_schema(${sqlString(file)})`);
    const described = await this.rows(`DESCRIBE SELECT * FROM ${source}`);
    const fields = topLevelElements(schemaRows);
    if (fields.length !== described.length) {
      throw new Error(`DuckDB shows ${described.length} columns, the schema has ${fields.length}`);
    }
    let selected = fields.map((field, i) => ({
      name: field.name, type: specTypeOf(field), sqlName: described[i].column_name,
      duckType: described[i].column_type,
    }));
    return this.aggregate(source, file, selected, columns);
  }

  // The CSV reading: DuckDB's types from DESCRIBE of read_csv, as spec types.
  async summarizeCsv(file, { columns, csv }) {
    const source = duckCsvSource(file, csv, sqlString);
    const described = await this.rows(`DESCRIBE SELECT * FROM ${source}`);
    const selected = described.map((d) => ({
      name: d.column_name, type: specTypeOfDuck(d.column_type), sqlName: d.column_name, duckType: d.column_type,
    }));
    return this.aggregate(source, file, selected, columns);
  }

  // One aggregate query over `source` for the `selected` columns (restricted to `columns`).
  async aggregate(source, file, selected, columns) {
    if (columns) {
      selected = columns.map((name) => {
        const found = selected.find((c) => c.name === name);
        if (!found) throw new Error(`no column '${name}' in ${file}`);
        return found;
      });
    }
    const aggregates = ['count(*) AS "rows"'];
    selected.forEach((column, i) => {
      const c = sqlIdentifier(column.sqlName);
      aggregates.push(`count(${c}) AS "count_${i}"`);
      if (column.type === 'nested') return;
      const value = valueExpression(c, column.duckType, column.type);
      const filter = isFloatType(column.type) ? ` FILTER (WHERE NOT isnan(${c}))` : '';
      aggregates.push(`min(${value})${filter} AS "min_${i}"`, `max(${value})${filter} AS "max_${i}"`);
    });
    const [result] = await this.rows(`SELECT ${aggregates.join(', ')} FROM ${source}`);
    const rows = Number(result.rows);
    const summary = selected.map((column, i) => {
      const count = Number(result[`count_${i}`]);
      let min = formatDuckValue(result[`min_${i}`], column.type, column.duckType);
      let max = formatDuckValue(result[`max_${i}`], column.type, column.duckType);
      if (isFloatType(column.type) && count > 0 && min === null) min = max = 'NaN';
      return { name: column.name, type: column.type, count, nulls: rows - count, min, max };
    });
    return summaryLine(rows, summary);
  }

  close() {
    this.connection.closeSync?.();
    this.instance.closeSync?.();
  }
}
