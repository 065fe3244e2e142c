/**
 * The Devices panel (docs/devices.md): what is plugged in, live; the ports the user added by path
 * (settings.serialPorts); each backend's state with the fix when it is missing; and a serial
 * console for one port at a time, docked at the bottom.
 */
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import type { BackendStatus, Device } from '../../../../shared/bridge'
import { getConnectionMonitor } from '../../bridge'
import { dictionaries, type MessageKey, type Translator, useT } from '../../i18n'
import { useSettingsStore } from '../../stores'
import { MAX_ADDED_PORTS, MAX_PORT_PATH, useDevicesStore } from '../../stores/devices'
import { CheckIcon, CopyIcon, Dialog, PlusIcon, TrashIcon, XIcon } from '../common'
import { TerminalIcon } from './icons'
import { SerialConsole } from './SerialConsole'

/** Copies `text`; says "Copied" for a moment. The text stays selectable when the clipboard refuses. */
function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const t = useT()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      // Clipboard refused (no focus, no permission): the text is shown and selectable.
    }
  }
  return (
    <button type="button" className="code-copy" data-testid={testId} onClick={() => void copy()}>
      {copied ? <CheckIcon size={13} /> : <CopyIcon size={13} />}
      <span>{copied ? t('devices.copied') : t('devices.copy')}</span>
    </button>
  )
}

function ConsoleButton({ port, testId, active }: { port: string; testId: string; active: boolean }) {
  const t = useT()
  const showConsole = useDevicesStore((s) => s.showConsole)
  return (
    <button
      type="button"
      className={`btn btn-small device-console-button${active ? ' active' : ''}`}
      data-testid={testId}
      data-port={port}
      aria-pressed={active}
      title={t('devices.openConsoleOn', { port })}
      aria-label={t('devices.openConsoleOn', { port })}
      onClick={() => showConsole(port)}
    >
      <TerminalIcon size={13} />
      <span>{t('devices.openConsole')}</span>
    </button>
  )
}

function DeviceRow({ device, fresh, consolePath }: { device: Device; fresh: boolean; consolePath: string | null }) {
  const t = useT()
  const hasIds = device.vendorId !== undefined || device.productId !== undefined
  // In the UI's language where main framed the name ("Serial port /dev/ttyS0"); product names as they are.
  const name = deviceText(t, device.nameText) ?? device.name
  const board = device.board ? (deviceText(t, device.boardText) ?? device.board) : undefined
  return (
    <li
      className={`device-row${fresh ? ' fresh' : ''}${consolePath && device.ports.includes(consolePath) ? ' console-target' : ''}`}
      data-testid="device-row"
      data-device-id={device.id}
      data-ports={device.ports.join(' ')}
      data-fresh={fresh ? 'true' : undefined}
    >
      <div className="device-head">
        <span className="device-name" data-testid="device-name">{name}</span>
        {fresh && <span className="device-badge device-badge-new">{t('devices.new')}</span>}
        <span className="device-badges">
          {device.kinds.map((kind) => (
            <span key={kind} className="device-badge" data-kind={kind}>
              {t(`devices.kind.${kind}`)}
            </span>
          ))}
          {/* "USB" once: the connection only when the kinds do not say it already. */}
          {!(device.connection === 'usb' && device.kinds.includes('usb')) && (
            <span className="device-badge device-badge-connection" data-connection={device.connection}>
              {t(`devices.connection.${device.connection}`)}
            </span>
          )}
        </span>
      </div>
      {board && device.board !== device.name && <div className="device-board">{board}</div>}
      {(hasIds || device.serialNumber || (device.hidPaths && device.hidPaths.length > 0)) && (
        <dl className="device-meta">
          {hasIds && (
            <div>
              <dt>{t('devices.ids')}</dt>
              <dd className="mono">
                {device.vendorId ?? '????'}:{device.productId ?? '????'}
              </dd>
            </div>
          )}
          {device.serialNumber && (
            <div>
              <dt>{t('devices.serialNumber')}</dt>
              <dd className="mono">{device.serialNumber}</dd>
            </div>
          )}
          {device.hidPaths && device.hidPaths.length > 0 && (
            <div>
              <dt>{t('devices.hidPaths')}</dt>
              <dd className="mono">{device.hidPaths.join(', ')}</dd>
            </div>
          )}
        </dl>
      )}
      <div className="device-ports">
        <span className="device-ports-label">{t('devices.ports')}</span>
        {device.ports.length === 0 ? (
          <span className="device-no-ports">{t('devices.noPorts')}</span>
        ) : (
          device.ports.map((port) => (
            <span key={port} className="device-port">
              <code className="mono">{port}</code>
              <ConsoleButton port={port} testId="device-console" active={consolePath === port} />
            </span>
          ))
        )}
      </div>
    </li>
  )
}

function DeviceList() {
  const t = useT()
  const snapshot = useDevicesStore((s) => s.snapshot)
  const loadError = useDevicesStore((s) => s.loadError)
  const fresh = useDevicesStore((s) => s.fresh)
  const load = useDevicesStore((s) => s.load)
  const consolePath = useDevicesStore((s) => s.console?.path ?? null)

  if (!snapshot) {
    return loadError ? (
      <div className="devices-status error" data-testid="devices-load-error">
        <span>
          {t('devices.loadFailed')} {t.error(loadError)}
        </span>
        <button type="button" className="btn btn-small" onClick={() => void load()}>
          {t('devices.retry')}
        </button>
      </div>
    ) : (
      <div className="devices-status" data-testid="devices-loading">
        {t('devices.loading')}
      </div>
    )
  }
  if (snapshot.devices.length === 0) {
    return (
      <p className="devices-empty" data-testid="devices-empty">
        {t('devices.empty')}
      </p>
    )
  }
  return (
    <ul className="device-list" data-testid="device-list">
      {snapshot.devices.map((device) => (
        <DeviceRow key={device.id} device={device} fresh={fresh.includes(device.id)} consolePath={consolePath} />
      ))}
    </ul>
  )
}

function AddedPorts() {
  const t = useT()
  const settings = useSettingsStore((s) => s.settings)
  const update = useSettingsStore((s) => s.update)
  const snapshot = useDevicesStore((s) => s.snapshot)
  const consolePath = useDevicesStore((s) => s.console?.path ?? null)
  const [path, setPath] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const ports = settings?.serialPorts ?? []
  const present = new Set(snapshot?.devices.flatMap((device) => device.ports) ?? [])

  const save = async (serialPorts: string[]): Promise<boolean> => {
    setSaving(true)
    const result = await update({ serialPorts })
    setSaving(false)
    if (!result.ok) setError(t('devices.added.failed', { message: t.error(result.error) }))
    return result.ok
  }

  const add = async (event: FormEvent) => {
    event.preventDefault()
    setError(null)
    const wanted = path.trim()
    if (!wanted) return setError(t('devices.added.empty'))
    if (wanted.length > MAX_PORT_PATH) return setError(t('devices.added.tooLong'))
    if (ports.includes(wanted)) return setError(t('devices.added.duplicate', { path: wanted }))
    if (ports.length >= MAX_ADDED_PORTS) return setError(t('devices.added.tooMany', { n: MAX_ADDED_PORTS }))
    if (await save([...ports, wanted])) setPath('')
  }

  const remove = async (port: string) => {
    setError(null)
    await save(ports.filter((p) => p !== port))
  }

  return (
    <>
      <p className="field-hint devices-hint">{t('devices.added.hint')}</p>
      {ports.length === 0 ? (
        <p className="devices-none">{t('devices.added.none')}</p>
      ) : (
        <ul className="added-ports">
          {ports.map((port) => {
            const here = present.has(port)
            return (
              <li key={port} className="added-port" data-testid="added-port" data-path={port} data-present={here ? 'true' : 'false'}>
                <code className="mono added-port-path">{port}</code>
                <span className={`added-port-state ${here ? 'present' : 'missing'}`}>
                  <span className="added-port-dot" aria-hidden="true" />
                  {here ? t('devices.added.present') : t('devices.added.missing')}
                </span>
                <span className="added-port-actions">
                  <ConsoleButton port={port} testId="added-port-console" active={consolePath === port} />
                  <button
                    type="button"
                    className="icon-button"
                    data-testid="added-port-remove"
                    title={t('devices.added.removeThis', { path: port })}
                    aria-label={t('devices.added.removeThis', { path: port })}
                    disabled={saving}
                    onClick={() => void remove(port)}
                  >
                    <TrashIcon size={14} />
                  </button>
                </span>
              </li>
            )
          })}
        </ul>
      )}
      <form className="add-port-form" onSubmit={(event) => void add(event)} noValidate>
        <input
          className="text-input mono"
          data-testid="add-port-input"
          value={path}
          spellCheck={false}
          autoComplete="off"
          placeholder="/dev/rfcomm0, /tmp/ttyV0, COM7"
          aria-label={t('devices.added.label')}
          onChange={(event) => {
            setPath(event.target.value)
            setError(null)
          }}
        />
        <button type="submit" className="btn" data-testid="add-port-button" disabled={saving || !settings}>
          <PlusIcon size={14} />
          <span>{t('devices.added.add')}</span>
        </button>
      </form>
      {error && (
        <div className="form-error" role="alert" data-testid="add-port-error">
          {error}
        </div>
      )}
    </>
  )
}

function BackendItem({ status }: { status: BackendStatus }) {
  const t = useT()
  return (
    <li
      className={`device-backend ${status.available ? 'available' : 'unavailable'}`}
      data-testid="device-backend"
      data-backend={status.backend}
      data-available={status.available ? 'true' : 'false'}
    >
      <div className="device-backend-head">
        <span className="device-backend-dot" aria-hidden="true" />
        <span className="device-backend-name">{t(`devices.backend.${status.backend}`)}</span>
        <span className="device-backend-state">
          {status.available ? t('devices.backend.available') : t('devices.backend.unavailable')}
        </span>
      </div>
      {!status.available && status.why && (
        <div className="device-backend-why" data-testid="device-backend-why">
          <span className="device-backend-label">{t('devices.backend.why')}</span> {deviceText(t, status.whyText) ?? status.why}
          {/* The system's own words (a library's error), as it said them. */}
          {status.whyText?.params?.detail !== undefined && deviceText(t, status.whyText) !== null && (
            <code className="device-detail" data-testid="device-backend-detail">
              {String(status.whyText.params.detail)}
            </code>
          )}
        </div>
      )}
      {/* The fix as a sentence in the UI's language, and only the command in the copyable box (issue 22, item 5). */}
      {!status.available && status.fixText && (
        <div className="device-backend-why" data-testid="device-backend-fix-text">
          <span className="device-backend-label">{t('devices.backend.fix')}</span> {deviceText(t, status.fixText)}
        </div>
      )}
      {!status.available && (status.fixCommand ?? (status.fixText ? undefined : status.fix)) && (
        <div className="code-block device-backend-fix">
          <div className="code-block-bar">
            <span className="code-block-lang">{status.fixCommand ? t('devices.backend.command') : t('devices.backend.fix')}</span>
            <CopyButton text={status.fixCommand ?? status.fix!} testId="device-backend-fix-copy" />
          </div>
          <pre data-testid="device-backend-fix">{status.fixCommand ?? status.fix}</pre>
        </div>
      )}
    </li>
  )
}

function Backends() {
  const t = useT()
  const backends = useDevicesStore((s) => s.snapshot?.backends)
  if (!backends) return null
  if (backends.length === 0) return <p className="devices-none">{t('devices.backends.none')}</p>
  return (
    <ul className="device-backends">
      {backends.map((status) => (
        <BackendItem key={status.backend} status={status} />
      ))}
    </ul>
  )
}

export function DevicesPanel({ onClose }: { onClose(): void }) {
  const t = useT()
  const titleId = useId()
  const load = useDevicesStore((s) => s.load)
  const hideConsole = useDevicesStore((s) => s.hideConsole)
  const hasConsole = useDevicesStore((s) => s.console !== null)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  // The list when the panel opens, and again after the connection came back (events were missed).
  useEffect(() => {
    void load()
    let wasDown = false
    const off = getConnectionMonitor().subscribe((state) => {
      if (state.status === 'disconnected') wasDown = true
      if (state.status === 'connected' && wasDown) {
        wasDown = false
        void load()
      }
    })
    return () => {
      off()
      // The console's port is the panel's: closing the panel closes it.
      void hideConsole()
    }
  }, [load, hideConsole])

  return (
    <Dialog
      labelledBy={titleId}
      className={`devices-dialog${hasConsole ? ' with-console' : ''}`}
      testId="devices-panel"
      onBackdrop={onClose}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault()
          closeRef.current()
        }
      }}
    >
      <div className="settings-head">
        <h2 id={titleId} className="dialog-title">
          {t('devices.title')}
        </h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t('devices.close')} data-testid="devices-close">
          <XIcon />
        </button>
      </div>
      <div className="devices-scroll">
        <section aria-labelledby={`${titleId}-devices`}>
          <h3 id={`${titleId}-devices`}>{t('devices.section.devices')}</h3>
          <DeviceList />
        </section>
        <section aria-labelledby={`${titleId}-added`}>
          <h3 id={`${titleId}-added`}>{t('devices.section.added')}</h3>
          <AddedPorts />
        </section>
        <section aria-labelledby={`${titleId}-backends`}>
          <h3 id={`${titleId}-backends`}>{t('devices.section.backends')}</h3>
          <Backends />
        </section>
      </div>
      {hasConsole && <SerialConsole />}
    </Dialog>
  )
}

/** A backend's message code in the UI's language; null when it is unknown here (the English text is shown). */
function deviceText(t: Translator, text: { key: string; params?: Record<string, string | number> } | undefined): string | null {
  if (!text || !Object.hasOwn(dictionaries.en, text.key)) return null
  return t(text.key as MessageKey, text.params)
}
