/**
 * What a device is, from its USB ids, where usb.ids does not say it well (docs/devices.md): maker
 * boards (usb.ids has no Espressif or Raspberry Pi RP2 entries, and names the Arduino Uno "Uno R3
 * (CDC ACM)"), the USB-serial bridge chips that many boards share, and a few well-known HID devices.
 *
 * Like Arduino's boards.txt, a bridge chip does not identify the board behind it: those entries say
 * "board unknown". An entry without productId matches every product of that vendor id, after the
 * exact entries; only vendor ids that belong to one maker of boards get one.
 */

export type BoardKind =
  /** A development board or a board's own USB (the first group in the device list). */
  | 'board'
  /** A USB-serial bridge chip: the board behind it is unknown. */
  | 'adapter'
  /** A known device that is not a board (a security key). */
  | 'device'

export interface BoardEntry {
  vendorId: string
  /** Omitted: any product of the vendor (a fallback after the exact entries). */
  productId?: string
  kind: BoardKind
  /** The maker, short ("Espressif"); used when usb.ids has no vendor name. */
  vendor: string
  /** What to call it ("Arduino Uno"); for adapters the chip ("CH340 USB-serial adapter"). */
  name: string
  /** What it is, for Device.board, when it says more than the name ("ESP32-S3/C3/C6 (native USB JTAG/serial)"). */
  board?: string
}

const board = (vendorId: string, productId: string | undefined, vendor: string, name: string, boardText?: string): BoardEntry => ({
  vendorId,
  ...(productId ? { productId } : {}),
  kind: 'board',
  vendor,
  name,
  ...(boardText ? { board: boardText } : {})
})
const adapter = (vendorId: string, productId: string, vendor: string, name: string): BoardEntry => ({ vendorId, productId, kind: 'adapter', vendor, name })
const device = (vendorId: string, productId: string | undefined, vendor: string, name: string): BoardEntry => ({
  vendorId,
  ...(productId ? { productId } : {}),
  kind: 'device',
  vendor,
  name
})

export const BOARDS: readonly BoardEntry[] = [
  // Espressif (github.com/espressif/usb-pids). 1001 is the on-chip USB-Serial-JTAG of the ESP32-S3,
  // -C3, -C6, -H2 and -P4: one pid for all, so the chip cannot be told apart by ids.
  board('303a', '1001', 'Espressif', 'Espressif ESP32-S3/C3/C6 (USB JTAG/serial)', 'ESP32-S3/C3/C6 (native USB JTAG/serial)'),
  board('303a', '0002', 'Espressif', 'Espressif ESP32-S2 (native USB)', 'ESP32-S2 (native USB)'),
  board('303a', undefined, 'Espressif', 'Espressif ESP32 board (native USB)', 'ESP32-S2/S3 (native USB, TinyUSB)'),

  // Raspberry Pi RP2040 / RP2350 (github.com/raspberrypi/usb-pid).
  board('2e8a', '0003', 'Raspberry Pi', 'Raspberry Pi RP2040 (BOOTSEL mode)', 'RP2040 in the USB bootloader (BOOTSEL)'),
  board('2e8a', '000f', 'Raspberry Pi', 'Raspberry Pi RP2350 (BOOTSEL mode)', 'RP2350 in the USB bootloader (BOOTSEL)'),
  board('2e8a', '0005', 'Raspberry Pi', 'Raspberry Pi Pico (MicroPython)', 'RP2040/RP2350 board running MicroPython'),
  board('2e8a', '000b', 'Raspberry Pi', 'Raspberry Pi Pico (CircuitPython)', 'RP2040/RP2350 board running CircuitPython'),
  board('2e8a', '0009', 'Raspberry Pi', 'Raspberry Pi Pico (Pico SDK USB serial)', 'RP2040/RP2350 board running a Pico SDK program'),
  board('2e8a', '000a', 'Raspberry Pi', 'Raspberry Pi Pico (Pico SDK USB serial)', 'RP2040 board running a Pico SDK program'),
  board('2e8a', '000c', 'Raspberry Pi', 'Raspberry Pi Debug Probe', 'Debug Probe (CMSIS-DAP and UART)'),
  board('2e8a', '0004', 'Raspberry Pi', 'Raspberry Pi Picoprobe', 'Picoprobe (CMSIS-DAP and UART)'),
  board('2e8a', undefined, 'Raspberry Pi', 'RP2040/RP2350 board', 'RP2040/RP2350 board'),

  // Arduino (boards.txt upload_port vid/pid of the official cores; 2a03 is the former arduino.org).
  // Boards with native USB have two pids: the bootloader (0xxx) and the running sketch (8xxx).
  board('2341', '0043', 'Arduino', 'Arduino Uno', 'Arduino Uno (ATmega328P)'),
  board('2341', '0001', 'Arduino', 'Arduino Uno', 'Arduino Uno (ATmega328P)'),
  board('2341', '0243', 'Arduino', 'Arduino Uno', 'Arduino Uno (ATmega328P)'),
  board('2a03', '0043', 'Arduino', 'Arduino Uno', 'Arduino Uno (ATmega328P)'),
  board('2341', '0042', 'Arduino', 'Arduino Mega 2560', 'Arduino Mega 2560 (ATmega2560)'),
  board('2341', '0010', 'Arduino', 'Arduino Mega 2560', 'Arduino Mega 2560 (ATmega2560)'),
  board('2a03', '0042', 'Arduino', 'Arduino Mega 2560', 'Arduino Mega 2560 (ATmega2560)'),
  board('2a03', '0010', 'Arduino', 'Arduino Mega 2560', 'Arduino Mega 2560 (ATmega2560)'),
  board('2341', '8036', 'Arduino', 'Arduino Leonardo', 'Arduino Leonardo (ATmega32U4)'),
  board('2341', '0036', 'Arduino', 'Arduino Leonardo (bootloader)', 'Arduino Leonardo (ATmega32U4) in its bootloader'),
  board('2a03', '8036', 'Arduino', 'Arduino Leonardo', 'Arduino Leonardo (ATmega32U4)'),
  board('2a03', '0036', 'Arduino', 'Arduino Leonardo (bootloader)', 'Arduino Leonardo (ATmega32U4) in its bootloader'),
  board('2341', '8037', 'Arduino', 'Arduino Micro', 'Arduino Micro (ATmega32U4)'),
  board('2341', '0037', 'Arduino', 'Arduino Micro (bootloader)', 'Arduino Micro (ATmega32U4) in its bootloader'),
  board('2341', '0058', 'Arduino', 'Arduino Nano Every', 'Arduino Nano Every (ATmega4809)'),
  board('2341', '8057', 'Arduino', 'Arduino Nano 33 IoT', 'Arduino Nano 33 IoT (SAMD21)'),
  board('2341', '0057', 'Arduino', 'Arduino Nano 33 IoT (bootloader)', 'Arduino Nano 33 IoT (SAMD21) in its bootloader'),
  board('2341', '0069', 'Arduino', 'Arduino Uno R4 Minima', 'Arduino Uno R4 Minima (RA4M1)'),
  board('2341', '1002', 'Arduino', 'Arduino Uno R4 WiFi', 'Arduino Uno R4 WiFi (RA4M1, ESP32-S3 USB bridge)'),
  board('2341', '003d', 'Arduino', 'Arduino Due (programming port)', 'Arduino Due (SAM3X8E), programming port'),
  board('2341', '003e', 'Arduino', 'Arduino Due (native USB port)', 'Arduino Due (SAM3X8E), native USB port'),
  board('2341', '804d', 'Arduino', 'Arduino Zero (native USB port)', 'Arduino Zero (SAMD21), native USB port'),
  board('2341', '8054', 'Arduino', 'Arduino MKR WiFi 1010', 'Arduino MKR WiFi 1010 (SAMD21)'),
  board('2341', undefined, 'Arduino', 'Arduino board', 'Arduino board (model not in the table)'),
  board('2a03', undefined, 'Arduino', 'Arduino board', 'Arduino board (arduino.org, model not in the table)'),

  // Boards whose makers use their own vendor id for every board (the product string names the model).
  board('239a', undefined, 'Adafruit', 'Adafruit board', 'Adafruit board (the model is in its product string)'),
  board('1b4f', undefined, 'SparkFun', 'SparkFun board', 'SparkFun board (the model is in its product string)'),

  // 16c0 is a vendor id shared by many hobby devices (V-USB): only PJRC's Teensy pids.
  board('16c0', '0483', 'PJRC', 'Teensy (USB serial)', 'Teensy running a Teensyduino sketch with USB serial'),
  board('16c0', '0478', 'PJRC', 'Teensy (HalfKay bootloader)', 'Teensy in its HalfKay bootloader'),

  // STMicroelectronics makes far more than boards: exact pids only.
  board('0483', '5740', 'STMicroelectronics', 'STM32 (USB virtual COM port)', 'STM32 with native USB CDC (virtual COM port)'),
  board('0483', 'df11', 'STMicroelectronics', 'STM32 (DFU bootloader)', 'STM32 in its USB DFU bootloader'),
  board('0483', '374b', 'STMicroelectronics', 'ST-LINK/V2-1 (STM32 Nucleo/Discovery)', 'ST-LINK/V2-1 probe of an STM32 Nucleo/Discovery board, with a virtual COM port'),
  board('0483', '374e', 'STMicroelectronics', 'STLINK-V3 (STM32 Nucleo/Discovery)', 'STLINK-V3 probe of an STM32 Nucleo/Discovery board, with a virtual COM port'),

  // USB-serial bridge chips: on countless boards and cables, so the board is unknown.
  adapter('1a86', '7523', 'WCH', 'CH340 USB-serial adapter'),
  adapter('1a86', '7522', 'WCH', 'CH340 USB-serial adapter'),
  adapter('1a86', '5523', 'WCH', 'CH341 USB-serial adapter'),
  adapter('1a86', '55d3', 'WCH', 'CH343 USB-serial adapter'),
  adapter('1a86', '55d4', 'WCH', 'CH9102 USB-serial adapter'),
  adapter('0403', '6001', 'FTDI', 'FT232R USB-serial adapter'),
  adapter('0403', '6010', 'FTDI', 'FT2232 dual USB-serial adapter'),
  adapter('0403', '6011', 'FTDI', 'FT4232H quad USB-serial adapter'),
  adapter('0403', '6014', 'FTDI', 'FT232H USB-serial adapter'),
  adapter('0403', '6015', 'FTDI', 'FT-X (FT230X/FT231X) USB-serial adapter'),
  adapter('10c4', 'ea60', 'Silicon Labs', 'CP210x USB-serial adapter'),
  adapter('10c4', 'ea70', 'Silicon Labs', 'CP2105 dual USB-serial adapter'),
  adapter('10c4', 'ea71', 'Silicon Labs', 'CP2108 quad USB-serial adapter'),
  adapter('067b', '2303', 'Prolific', 'PL2303 USB-serial adapter'),
  adapter('067b', '23a3', 'Prolific', 'PL2303GC USB-serial adapter'),

  // Security keys (HID). YubiKey 4 and 5 share these pids (the pid says which interfaces are on).
  device('1050', '0407', 'Yubico', 'YubiKey 4/5 (OTP+FIDO+CCID)'),
  device('1050', '0406', 'Yubico', 'YubiKey 4/5 (FIDO+CCID)'),
  device('1050', '0402', 'Yubico', 'YubiKey 4/5 (FIDO)'),
  device('1050', undefined, 'Yubico', 'YubiKey')
]

const exact = new Map<string, BoardEntry>()
const byVendor = new Map<string, BoardEntry>()
for (const entry of BOARDS) {
  if (entry.productId) exact.set(`${entry.vendorId}:${entry.productId}`, entry)
  else byVendor.set(entry.vendorId, entry)
}

export interface BoardMatch {
  entry: BoardEntry
  /** Matched on vendor and product, not on the vendor alone. */
  exact: boolean
}

/** The table's entry for these ids (four lower-case hex digits): exact vid+pid first, then the vendor's. */
export function lookupBoard(vendorId: string | undefined, productId: string | undefined): BoardMatch | undefined {
  if (!vendorId) return undefined
  const hit = productId ? exact.get(`${vendorId}:${productId}`) : undefined
  if (hit) return { entry: hit, exact: true }
  const vendor = byVendor.get(vendorId)
  return vendor ? { entry: vendor, exact: false } : undefined
}
