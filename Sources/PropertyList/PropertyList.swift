// Module `PropertyList`: see Package.swift for its role.
