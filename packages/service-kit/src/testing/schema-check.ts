// Compares a Prisma schema with a migrated database (tables, columns, types, nullability), so a migration
// that drifts from schema.prisma fails a test instead of a query in production.
import { readFileSync } from 'node:fs';
import internals from '@prisma/internals';
import pg from 'pg';

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  type: string;
  isRequired: boolean;
  isList: boolean;
  nativeType?: [string, string[]] | null;
}

interface DmmfModel {
  name: string;
  dbName?: string | null;
  fields: DmmfField[];
}

// Postgres' information_schema names for Prisma's scalar types and the native types Rotunda uses.
const DEFAULT_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric',
  Boolean: 'boolean',
  DateTime: 'timestamp without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};
const NATIVE_TYPES: Record<string, string> = {
  Uuid: 'uuid',
  Text: 'text',
  VarChar: 'character varying',
  Char: 'character',
  Timestamptz: 'timestamp with time zone',
  Timestamp: 'timestamp without time zone',
  Date: 'date',
  Integer: 'integer',
  SmallInt: 'smallint',
  JsonB: 'jsonb',
};

function expectedType(field: DmmfField): string {
  const native = field.nativeType?.[0];
  const base = native ? NATIVE_TYPES[native] : DEFAULT_TYPES[field.type];
  if (!base) throw new Error(`schema check: no mapping for ${field.name}: ${native ?? field.type}`);
  return field.isList ? `${base}[]` : base;
}

/** Answers every difference found; an empty list means the database matches the schema. */
export async function diffSchemaAndDatabase(options: {
  prismaSchemaPath: string;
  databaseUrl: string;
  schema: string;
}): Promise<string[]> {
  const dmmf = await internals.getDMMF({ datamodel: readFileSync(options.prismaSchemaPath, 'utf8') });
  const models = dmmf.datamodel.models as unknown as DmmfModel[];
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: 'YES' | 'NO';
  }>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable
       FROM information_schema.columns WHERE table_schema = $1 AND table_name <> '_prisma_migrations'`,
    [options.schema],
  );
  await client.end();

  const columns = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
  const differences: string[] = [];
  const expected = new Set<string>();
  for (const model of models) {
    const table = model.dbName ?? model.name;
    for (const field of model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum')) {
      const key = `${table}.${field.dbName ?? field.name}`;
      expected.add(key);
      const column = columns.get(key);
      if (!column) {
        differences.push(`${key}: in schema.prisma, missing from the database`);
        continue;
      }
      const actualType =
        column.data_type === 'ARRAY'
          ? `${NATIVE_TYPES[column.udt_name] ?? column.udt_name.replace(/^_/, '')}[]`
          : column.data_type;
      const wantType = field.kind === 'enum' ? 'USER-DEFINED' : expectedType(field);
      if (actualType !== wantType && !(field.isList && column.data_type === 'ARRAY')) {
        differences.push(`${key}: type ${actualType} in the database, ${wantType} in schema.prisma`);
      }
      const nullable = column.is_nullable === 'YES';
      if (nullable === field.isRequired) {
        differences.push(
          `${key}: ${nullable ? 'nullable' : 'NOT NULL'} in the database, ${field.isRequired ? 'required' : 'optional'} in schema.prisma`,
        );
      }
    }
  }
  for (const key of columns.keys()) {
    if (!expected.has(key)) differences.push(`${key}: in the database, missing from schema.prisma`);
  }
  return differences;
}
