import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { INTERFACE_NO, type TaggedRequest } from './envelope';

const INTERFACE_KEY = 'api:interfaceNo';

/** Marks a handler with its interface number (the first three digits of its five-digit codes). */
export const ApiInterface = (interfaceNo: number): MethodDecorator => SetMetadata(INTERFACE_KEY, interfaceNo);

/** Records the handler's interface number on the request, for the exception filter. */
export function tagInterface(context: ExecutionContext, reflector: Reflector): number | undefined {
  const no = reflector.get<number | undefined>(INTERFACE_KEY, context.getHandler());
  if (no !== undefined) context.switchToHttp().getRequest<TaggedRequest>()[INTERFACE_NO] = no;
  return no;
}

/** The interface number `@ApiInterface` gave a handler (what `tagInterface` puts on the request). */
export function interfaceOf(handler: object): number | undefined {
  return Reflect.getMetadata(INTERFACE_KEY, handler) as number | undefined;
}
