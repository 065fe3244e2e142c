import { useEffect, useState } from 'react'

/** `value`, once it has stayed the same for `ms` (asking a server on every keystroke helps nobody). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}
