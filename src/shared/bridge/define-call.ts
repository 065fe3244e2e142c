/** The one helper every domain file uses to declare a call: a zod input paired with a zod output. */
import type { z } from 'zod'

export const defineCall = <I extends z.ZodType, O extends z.ZodType>(input: I, output: O) => ({ input, output })
