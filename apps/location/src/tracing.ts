// Loaded first by main.ts: the OpenTelemetry instrumentations must patch the modules they
// trace before anything requires them. Off (and nothing more is loaded) unless an OTLP
// endpoint is configured; see docs/operations.md.
import { startTracing } from '@geoaccount/observability/tracing';

try {
  startTracing('location');
} catch (err) {
  process.stderr.write(`location: ${(err as Error).message}\n`);
  process.exit(1);
}
