// Module `InterfaceObjects`: see Package.swift for its role.
