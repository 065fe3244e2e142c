import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './App'
import { applyTheme, rememberedTheme } from './features/theme'
import './styles.css'

const root = document.getElementById('root')
if (!root) throw new Error('#root is missing from index.html')
// Paint in last time's theme from the first frame; the settings' theme follows once loaded.
applyTheme(rememberedTheme())

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
)
