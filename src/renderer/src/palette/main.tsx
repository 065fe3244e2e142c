/** The quick-command palette's renderer entry (palette.html): the main UI's styles, then its own. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { PaletteApp } from './PaletteApp'
import '../styles.css'
import './palette.css'

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing from palette.html')

createRoot(root).render(
  <StrictMode>
    <PaletteApp />
  </StrictMode>
)
