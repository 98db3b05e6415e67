import { figuresTable, readFigures } from './figures';

/** Prints every figure of the run as one table (the table docs/reliability.md records). */
export default function globalTeardown(): void {
  const figures = readFigures();
  if (figures.length === 0) return;
  process.stdout.write(`\nReliability figures of this run:\n\n${figuresTable(figures)}\n\n`);
}
