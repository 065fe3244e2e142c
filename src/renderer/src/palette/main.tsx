/** The quick-command palette's renderer entry (palette.html): the main UI's styles, then its own. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { applyTheme, rememberedTheme } from '../features/theme'
import { PaletteApp } from './PaletteApp'
import '../styles.css'
import './palette.css'

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing from palette.html')
// Paint in last time's theme from the first frame; the settings' theme follows once loaded.
applyTheme(rememberedTheme())

createRoot(root).render(
  <StrictMode>
    <PaletteApp />
  </StrictMode>
)
