// RFC 9457 problem details, the shape of every merchant API error.
import * as z from 'zod/mini';

export const FieldError = z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

export const Problem = z.object({
  type: z.optional(z.string()),
  title: z.string(),
  status: z.int(),
  detail: z.optional(z.string()),
  errors: z.optional(z.array(FieldError)),
});
export type Problem = z.infer<typeof Problem>;

/** One `{path, message}` per zod issue; the path names the field as it stands in the body (`order_details.0.price`). */
export function fieldErrors(error: z.core.$ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '(body)',
    message: issue.message,
  }));
}
