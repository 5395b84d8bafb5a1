#!/usr/bin/env python3
"""Writes Samples/suunto-dm5.xml: a small synthetic Suunto Dive Manager 5 export (the
Suunto.Diving.Dal data-contract XML: one <Dive>, elements in alphabetical order, i:nil="true"
for nulls, pressures in millibar as DM5 writes them, see DiveJSON's suunto-xml-mapping.md).
No real export may be shipped, so every value here is made up: a 42-minute nitrox dive to
24.6 m with a switch to a second gas, 30-second samples.

usage: scripts/make-sample-suunto-xml.py > Samples/suunto-dm5.xml
"""
NIL = '<{0} i:nil="true" />'


def el(name, value, indent=2):
    pad = ' ' * indent
    return pad + (NIL.format(name) if value is None else f'<{name}>{value}</{name}>')


def main():
    out = ['<Dive xmlns="http://schemas.datacontract.org/2004/07/Suunto.Diving.Dal" '
           'xmlns:i="http://www.w3.org/2001/XMLSchema-instance">']
    head = [('Algorithm', 0), ('AltitudeMode', 0), ('AscentMode', 0), ('AscentTime', 240), ('AvgDepth', '14.8'),
            ('BatteryLevel', None), ('Boat', None), ('BottomTemperature', 24), ('BottomTime', 1900),
            ('CnsEnd', 12), ('CnsStart', 2), ('CylinderVolume', 12), ('CylinderWorkPressure', 200000)]
    out += [el(k, v) for k, v in head]
    out.append('  <DiveMixtures>')
    for o2, size, start, end, switch in [(32, 12, 200000, 60000, 0), (50, 7, None, None, 2220)]:
        out.append('    <DiveMixture>')
        out.append('      <DiveGasChanges>')
        out.append('        <DiveGasChange>')
        out += [el('GasChangeTime', switch, 10), el('PO2', None, 10), el('SetPointType', 0, 10)]
        out.append('        </DiveGasChange>')
        out.append('      </DiveGasChanges>')
        out += [el('EndPressure', end if end is not None else 0, 6), el('Helium', 0, 6), el('Name', None, 6),
                el('Oxygen', o2, 6), el('PO2', '1.4' if o2 == 32 else '1.6', 6), el('Size', size, 6),
                el('StartPressure', start if start is not None else 0, 6), el('TransmitterId', '2411100050' if o2 == 32 else None, 6),
                el('Type', 1, 6)]
        out.append('    </DiveMixture>')
    out.append('  </DiveMixtures>')
    out.append(el('DiveNumberInSerie', 2))
    out.append('  <DiveSamples>')
    seconds = 42 * 60
    for t in range(0, seconds + 1, 30):
        if t < 150:
            depth = 24.6 * t / 150
        elif t < 1800:
            depth = 24.6 - 8 * (t - 150) / 1650
        elif t < 2400:
            depth = 16.6 - 11.6 * (t - 1800) / 600
        else:
            depth = 5.0 * (seconds - t) / (seconds - 2400)
        pressure = int(200000 - 140000 * t / seconds)
        out.append('    <Dive.Sample>')
        out += [el('AveragedTemperature', None, 6), el('Ceiling', None, 6), el('Depth', f'{depth:.2f}', 6),
                el('GasTime', None, 6), el('Heading', None, 6), el('Pressure', pressure, 6), el('SacRate', None, 6),
                el('Temperature', f'{26 - depth / 10:.1f}', 6), el('Time', t, 6)]
        out.append('    </Dive.Sample>')
    out.append('  </DiveSamples>')
    tail = [('DiveTags', None), ('DiveTime', seconds), ('DivingDaysInRow', 1), ('Duration', seconds + 120),
            ('EndPressure', None), ('EndTemperature', 25), ('MaxDepth', '24.6'), ('Mode', 1),
            ('Note', 'Synthetic sample: the house reef, drift along the wall'), ('OtuEnd', 20), ('OtuStart', 4),
            ('PersonalMode', 0), ("SampleInterval", 30), ('SerialNumber', '0000000000'), ('Software', '1.2.3'),
            ('Source', 'Suunto D5'), ('StartTemperature', 27), ('StartTime', '2024-06-01T09:30:00'),
            ('SurfacePressure', 101300), ('SurfaceTime', 5400), ('Visibility', None), ('Weather', None), ('Weight', None)]
    out += [el(k, v) for k, v in tail]
    out.append('</Dive>')
    print('\n'.join(out))


if __name__ == '__main__':
    main()
