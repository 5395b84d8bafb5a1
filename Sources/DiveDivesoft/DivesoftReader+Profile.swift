import DiveCore

extension DivesoftReader {
    /// The second pass: point records are samples, events and measurements their other channels.
    func profile(_ s: inout DivesoftSettings, cylinderOfMix: [Int: Int], cylinderOfTransmitter: [Int: Int], cylinders: [Cylinder]) throws -> Profile? {
        var p = Profile()
        var depth = Series(), temperature = Series(), ceiling = Series(), ndl = Series(), tts = Series(), ppo2 = Series(), cns = Series()
        var pressures: [Int: Series] = [:]
        var last = -1, lastTime = 0
        var backwards = 0, backwardsAt = 0, finer = 0, finerAt = 0
        var limit = InputLimits.samplesPerDive
        records({ o, type, time, id in
            if time < last {
                if backwards == 0 { backwardsAt = o }
                backwards += 1
                return
            }
            last = time
            let t = time * 1000
            lastTime = t
            switch type {
            case 0:
                guard limit > 0 else { drop("point record past the samples one dive may hold", at: o); return }
                limit -= 1
                depth.appendKeepingFirst(t, u16(o + 4))
                let raw = u16(o + 6)
                if raw != 0 {
                    // Tens of pascals: hundredths of a bar keep the first two of its four places.
                    if raw % 100 != 0 { if finer == 0 { finerAt = o }; finer += 1 }
                    ppo2.appendKeepingFirst(t, (raw + 50) / 100)
                }
                if id == 0 || id == 0x3FF {
                    let misc = u32(o + 8)
                    let temp = (misc >> 20) & 0x3FF
                    temperature.appendKeepingFirst(t, (temp >= 512 ? temp - 1024 : temp) * 10)
                    let c = u16(o + 12)
                    if c != 0 { ceiling.appendKeepingFirst(t, c) } else { ndl.appendKeepingFirst(t, (misc & 0x3FF) * 60) }
                    tts.appendKeepingFirst(t, ((misc >> 10) & 0x3FF) * 60)
                    if u8(o + 15) != 0 { drop("setpoint of a point record, which umilog's profile has no channel for", at: o + 15) }
                    if u8(o + 14) != 0 { drop("byte 14 of a point record, whose meaning no public source gives", at: o + 14) }
                    if misc >> 30 != 0 { drop("bits 30–31 of the word at byte 8 of a point record, whose meaning no public source gives", at: o + 8) }
                } else {
                    drop("bytes 8–15 of a point record of number \(id), whose meaning no public source gives", at: o + 8)
                }
            case 1...5, 9:
                let event = u16(o + 4)
                switch event {
                case 26:
                    p.events.append(Event(time: t, type: .bookmark))
                case 5, 23, 24:
                    let use: DivesoftMix.Use = event == 23 || (event == 24 && Self.isLoop(u8(o + 8))) ? .diluent : .openCircuit
                    let m = s.mix(DivesoftMix(oxygen: u8(o + 6), helium: u8(o + 7), use: use))
                    let c = cylinderOfMix[m].map { cylinders[$0].gasNumber } ?? nil
                    p.events.append(Event(time: t, type: .gasSwitch, gasNumber: c, label: event == 24 ? "mode change" : nil))
                case 30:
                    cns.appendKeepingFirst(t, (u16(o + 6) + 5) / 10)
                default:
                    let name = Divesoft.eventNames[event].map { "\"\($0)\" event" } ?? "event of number \(event)"
                    drop("\(name) (\(Divesoft.recordTypes[type] ?? "") record)", at: o)
                }
            case 6: break // read in the first pass
            case 7:
                switch id {
                case 7:
                    for i in 0..<12 {
                        let v = u8(o + 4 + i)
                        guard v != 0, v != 0xFF else { continue }
                        guard let c = cylinderOfTransmitter[i], let g = cylinders[c].gasNumber else {
                            drop("tank pressure from a transmitter no AI configuration record names", at: o + 4 + i)
                            continue
                        }
                        pressures[g, default: Series()].appendKeepingFirst(t, v * 20)
                    }
                case 4: break // read in the first pass
                default:
                    drop(["oxygen sensor ppO2 measurement", "battery measurement", "helium measurement", "oxygen sensor millivolt measurement",
                          "", "pressure measurement", "AI gas consumption measurement", "", "display brightness measurement",
                          "AI status measurement"][safe: id].map { $0 } ?? "measurement record of number \(id)", at: o)
                }
            case 8:
                drop("state record (tissue saturation or deco plan)", at: o)
            default:
                drop("record of type \(type), which no public source describes", at: o)
            }
        }, countEmpty: true)
        if backwards > 0 {
            report(.dropped, "time-backwards", "\(backwards) record(s) carry a time earlier than the record before; not read (the computer's clock stepped back)", at: backwardsAt)
        }
        if finer > 0 {
            report(.resolved, "ppo2-rounded", "\(finer) point record(s) give ppO2 in ten-thousandths of a bar; carried to the hundredth", at: finerAt)
        }
        p.depth = depth.isEmpty ? nil : depth
        p.temperature = temperature.isEmpty ? nil : temperature
        p.ceiling = ceiling.isEmpty ? nil : ceiling
        p.ndl = ndl.isEmpty ? nil : ndl
        p.tts = tts.isEmpty ? nil : tts
        p.ppo2 = ppo2.isEmpty ? nil : ppo2
        p.cns = cns.isEmpty ? nil : cns
        p.pressures = pressures.keys.sorted().map { PressureSeries(gasNumber: $0, series: pressures[$0]!) }
        p.duration = lastTime
        return p.isEmpty ? nil : p
    }
}
