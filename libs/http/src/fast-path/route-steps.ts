import { GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';

/**
 * Throws when `target` (a controller, or a handler with `handler: true`) declares steps of its
 * own that a direct route does not run: interceptors and pipes, and on a handler guards too
 * (a controller's guard is the one the route's `admit` runs). A direct route built from a
 * controller calls this at start, so that a step added later fails the start instead of
 * being skipped without a word.
 */
export function refuseUnrunSteps(target: object, name: string, { handler = false } = {}): void {
  const keys = handler ? [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA] : [INTERCEPTORS_METADATA, PIPES_METADATA];
  for (const key of keys) {
    const steps = Reflect.getMetadata(key, target) as unknown[] | undefined;
    if (steps && steps.length > 0) throw new Error(`direct route: ${name} has ${key}, which its direct route does not run`);
  }
}
